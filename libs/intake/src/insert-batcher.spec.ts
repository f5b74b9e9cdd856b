import type { RejectedEventRow } from '@app/contracts';
import { InsertBatcher, type RetryToken } from './insert-batcher';
import type { Refused } from './ingest-writer';

interface Row {
  id: string;
}

const row = (id: string): Row => ({ id });
const rejectedRow = (index: number) => ({ item_index: index, reason: 'bad' }) as RejectedEventRow;
const NONE: Refused<Row> = new Map();

/** A flush that stores everything. */
type Flush = (rows: Row[], rejected: RejectedEventRow[]) => Promise<Refused<Row>>;
const okFlush = () => jest.fn<ReturnType<Flush>, Parameters<Flush>>(() => Promise.resolve(NONE));

/** A flush whose calls stay pending until the test settles them, in call order. */
function controlledFlush() {
  const pending: Array<{ resolve: (refused: Refused<Row>) => void; reject: (err: unknown) => void }> = [];
  const flush = jest.fn<ReturnType<Flush>, Parameters<Flush>>(
    () =>
      new Promise<Refused<Row>>((resolve, reject) => {
        pending.push({ resolve, reject });
      }),
  );
  return { flush, pending };
}

/** Lets the batcher's setImmediate and the promise continuations after it run. */
const tick = () => new Promise((r) => setImmediate(r));

describe('InsertBatcher', () => {
  it('writes additions of the same moment in one flush, rows and rejected rows in addition order, without a token', async () => {
    const flush = okFlush();
    const batcher = new InsertBatcher<Row>(flush);
    const answers = Promise.all([
      batcher.add([row('a1'), row('a2')], [rejectedRow(0)]),
      batcher.add([row('b1')], []),
      batcher.add([], [rejectedRow(7)]),
    ]);
    expect(await answers).toEqual([NONE, NONE, NONE]);
    expect(flush).toHaveBeenCalledTimes(1);
    expect(flush).toHaveBeenCalledWith([row('a1'), row('a2'), row('b1')], [rejectedRow(0), rejectedRow(7)]);
  });

  it('writes additions with retry tokens in the shared flush; a stored token, or a repeat in the flush, writes nothing', async () => {
    const flush = okFlush();
    const storedTokens = jest.fn((tokens: readonly RetryToken[]) =>
      Promise.resolve(new Set(tokens.map((t) => t.token).filter((t) => t === 'old'))),
    );
    const batcher = new InsertBatcher<Row>(flush, { storedTokens });
    const retry = (token: string): RetryToken => ({ customer: 'shop', instance: 'live', token });
    const answers = await Promise.all([
      batcher.add([row('plain')], []),
      batcher.add([row('t1')], [rejectedRow(1)], retry('new')),
      batcher.add([row('t1-again')], [rejectedRow(1)], retry('new')),
      batcher.add([row('o1')], [rejectedRow(2)], retry('old')),
    ]);
    expect(answers).toEqual([NONE, NONE, NONE, NONE]);
    expect(storedTokens).toHaveBeenCalledTimes(1);
    expect(storedTokens).toHaveBeenCalledWith([retry('new'), retry('old')]);
    expect(flush).toHaveBeenCalledTimes(1);
    expect(flush).toHaveBeenCalledWith([row('plain'), row('t1')], [rejectedRow(1)]);
  });

  it('answers a repeat in the same flush with the refused rows of the first, at the same places', async () => {
    const flush = jest.fn((rows: Row[]) => Promise.resolve(new Map([[rows[1], 'storage refused the row']])));
    const batcher = new InsertBatcher<Row>(flush, { storedTokens: () => Promise.resolve(new Set()) });
    const retry: RetryToken = { customer: 'shop', instance: 'live', token: 'same' };
    const repeat = [row('a'), row('b')];
    const [first, second] = await Promise.all([batcher.add([row('a'), row('b')], [], retry), batcher.add(repeat, [], retry)]);
    expect([...first.values()]).toEqual(['storage refused the row']);
    expect([...second]).toEqual([[repeat[1], 'storage refused the row']]);
    expect(flush).toHaveBeenCalledTimes(1);
  });

  it('joins additions that arrive while a flush runs into the next flush, all together', async () => {
    const { flush, pending } = controlledFlush();
    const batcher = new InsertBatcher<Row>(flush);
    const first = batcher.add([row('a')], []);
    await tick();
    expect(flush).toHaveBeenCalledTimes(1);
    const second = batcher.add([row('b')], []);
    const third = batcher.add([row('c')], []);
    await tick();
    expect(flush).toHaveBeenCalledTimes(1);
    pending[0].resolve(NONE);
    await expect(first).resolves.toBe(NONE);
    await tick();
    expect(flush).toHaveBeenCalledTimes(2);
    expect(flush).toHaveBeenLastCalledWith([row('b'), row('c')], []);
    pending[1].resolve(NONE);
    await expect(Promise.all([second, third])).resolves.toEqual([NONE, NONE]);
  });

  it('splits queued additions into flushes of at most maxRows rows, never splitting one addition', async () => {
    const flush = okFlush();
    const batcher = new InsertBatcher<Row>(flush, { maxRows: 3 });
    await Promise.all([
      batcher.add([row('a1'), row('a2')], []),
      batcher.add([row('b1')], []),
      batcher.add([row('c1'), row('c2')], []),
      batcher.add([row('d1'), row('d2'), row('d3'), row('d4')], []),
      batcher.add([row('e1')], []),
    ]);
    expect(flush.mock.calls.map(([rows]) => rows.map((r) => r.id))).toEqual([
      ['a1', 'a2', 'b1'],
      ['c1', 'c2'],
      ['d1', 'd2', 'd3', 'd4'],
      ['e1'],
    ]);
  });

  it('rejects every addition of a failed flush, but not the additions of a later flush', async () => {
    const { flush, pending } = controlledFlush();
    const batcher = new InsertBatcher<Row>(flush);
    const a = batcher.add([row('a')], []);
    const b = batcher.add([row('b')], []);
    await tick();
    const later = batcher.add([row('c')], []);
    const failure = new Error('ClickHouse down');
    pending[0].reject(failure);
    await expect(a).rejects.toBe(failure);
    await expect(b).rejects.toBe(failure);
    await tick();
    expect(flush).toHaveBeenCalledTimes(2);
    pending[1].resolve(NONE);
    await expect(later).resolves.toBe(NONE);
  });

  it('goes on with the next maxRows flush after one fails', async () => {
    const failure = new Error('too many parts');
    const flush = jest.fn().mockRejectedValueOnce(failure).mockResolvedValue(NONE);
    const batcher = new InsertBatcher<Row>(flush, { maxRows: 1 });
    const results = await Promise.allSettled([batcher.add([row('a')], []), batcher.add([row('b')], [])]);
    expect(results).toEqual([
      { status: 'rejected', reason: failure },
      { status: 'fulfilled', value: NONE },
    ]);
  });

  it('starts a new flush for an addition made after the previous flush failed', async () => {
    const flush = jest.fn().mockRejectedValueOnce(new Error('down')).mockResolvedValue(NONE);
    const batcher = new InsertBatcher<Row>(flush);
    await expect(batcher.add([row('a')], [])).rejects.toThrow('down');
    await expect(batcher.add([row('b')], [])).resolves.toBe(NONE);
    expect(flush).toHaveBeenCalledTimes(2);
  });

  it('writes nothing and rejects every addition when the stored tokens cannot be read', async () => {
    const flush = okFlush();
    const failure = new Error('down');
    const batcher = new InsertBatcher<Row>(flush, { storedTokens: () => Promise.reject(failure) });
    const results = await Promise.allSettled([
      batcher.add([row('t')], [], { customer: 'shop', instance: 'live', token: 'tok' }),
      batcher.add([row('s')], []),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(flush).not.toHaveBeenCalled();
  });

  it('answers each refused row to the addition that carried it, matched by identity', async () => {
    const a1 = row('a1');
    const a2 = row('a2');
    const b1 = row('b1');
    const lookalike = row('a2');
    const flush = jest.fn(() =>
      Promise.resolve(
        new Map([
          [a2, 'storage refused the row: a2'],
          [b1, 'storage refused the row: b1'],
        ]),
      ),
    );
    const batcher = new InsertBatcher<Row>(flush);
    const [a, b, c] = await Promise.all([batcher.add([a1, a2], []), batcher.add([b1], []), batcher.add([lookalike], [])]);
    expect([...a]).toEqual([[a2, 'storage refused the row: a2']]);
    expect([...a.keys()][0]).toBe(a2);
    expect([...b]).toEqual([[b1, 'storage refused the row: b1']]);
    expect(c.size).toBe(0);
  });

  it('starts flushes at least minIntervalMs apart, so inserts per second stay bounded at any rate of additions', async () => {
    const flush = okFlush();
    const batcher = new InsertBatcher<Row>(flush, { minIntervalMs: 100 });
    const started = Date.now();
    const answers: Array<Promise<Refused<Row>>> = [];
    while (Date.now() - started < 1_000) {
      answers.push(batcher.add([row(`r${answers.length}`)], []));
      await new Promise((r) => setTimeout(r, 5));
    }
    await Promise.all(answers);
    const seconds = (Date.now() - started) / 1000;
    expect(answers.length).toBeGreaterThan(100);
    expect(flush.mock.calls.length).toBeLessThanOrEqual(Math.ceil(seconds * 10) + 1);
    expect(flush.mock.calls.flatMap(([rows]) => rows)).toHaveLength(answers.length);
  });
});
