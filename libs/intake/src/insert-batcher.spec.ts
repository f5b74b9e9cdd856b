import type { RejectedEventRow } from '@app/contracts';
import type { ClickHouseService } from '@app/clickhouse';
import type { MetricsService } from '@app/metrics';
import { InsertBatcher, type RetryToken } from './insert-batcher';
import { IngestWriter, type IngestRow, type IngestTarget, type Refused } from './ingest-writer';

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

/** A failed flush fails its additions at once. */
const NO_RETRIES = { retryDelaysMs: [] };

/** Lets the batcher's setImmediate and the promise continuations after it run. */
const tick = () => new Promise((r) => setImmediate(r));

describe('InsertBatcher', () => {
  it('writes additions of the same moment in one flush, rows and rejected rows in addition order, with a token of its own', async () => {
    const flush = okFlush();
    const batcher = new InsertBatcher<Row>(flush);
    const answers = Promise.all([
      batcher.add([row('a1'), row('a2')], [rejectedRow(0)]),
      batcher.add([row('b1')], []),
      batcher.add([], [rejectedRow(7)]),
    ]);
    expect(await answers).toEqual([NONE, NONE, NONE]);
    expect(flush).toHaveBeenCalledTimes(1);
    expect(flush).toHaveBeenCalledWith(
      [row('a1'), row('a2'), row('b1')],
      [rejectedRow(0), rejectedRow(7)],
      expect.stringMatching(/^intake:/),
    );
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
    expect(flush).toHaveBeenCalledWith([row('plain'), row('t1')], [rejectedRow(1)], expect.any(String));
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
    expect(flush).toHaveBeenLastCalledWith([row('b'), row('c')], [], expect.any(String));
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
    const batcher = new InsertBatcher<Row>(flush, NO_RETRIES);
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
    const batcher = new InsertBatcher<Row>(flush, { maxRows: 1, ...NO_RETRIES });
    const results = await Promise.allSettled([batcher.add([row('a')], []), batcher.add([row('b')], [])]);
    expect(results).toEqual([
      { status: 'rejected', reason: failure },
      { status: 'fulfilled', value: NONE },
    ]);
  });

  it('starts a new flush for an addition made after the previous flush failed', async () => {
    const flush = jest.fn().mockRejectedValueOnce(new Error('down')).mockResolvedValue(NONE);
    const batcher = new InsertBatcher<Row>(flush, NO_RETRIES);
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
    // A count of additions, not a duration: on a busy machine the timers fire late, and the bound below is read from
    // the time the additions really took.
    for (let i = 0; i < 200; i++) {
      answers.push(batcher.add([row(`r${i}`)], []));
      await new Promise((r) => setTimeout(r, 5));
    }
    await Promise.all(answers);
    const seconds = (Date.now() - started) / 1000;
    expect(flush.mock.calls.length).toBeLessThanOrEqual(Math.ceil(seconds * 10) + 1);
    expect(flush.mock.calls.flatMap(([rows]) => rows)).toHaveLength(answers.length);
  });

  it('writes a failed write again with the same rows and token, and fails its additions only when every try failed', async () => {
    const flush = jest.fn().mockRejectedValueOnce(new Error('socket hang up')).mockResolvedValue(NONE);
    const batcher = new InsertBatcher<Row>(flush, { retryDelaysMs: [10] });
    await expect(Promise.all([batcher.add([row('a')], []), batcher.add([row('b')], [])])).resolves.toEqual([NONE, NONE]);
    expect(flush).toHaveBeenCalledTimes(2);
    expect(flush.mock.calls[1]).toEqual(flush.mock.calls[0]);

    const down = jest.fn().mockRejectedValue(new Error('down'));
    const failing = new InsertBatcher<Row>(down, { retryDelaysMs: [10, 10] });
    await expect(failing.add([row('c')], [])).rejects.toThrow('down');
    expect(down).toHaveBeenCalledTimes(3);
  });
});

describe('InsertBatcher over IngestWriter: storage failing part-way through a write a data error split', () => {
  interface Event extends IngestRow {
    id: string;
    bad?: boolean;
    intake_token?: string;
  }
  const target: IngestTarget = { table: 'search_events', kind: 'search-event', tokenSuffix: 'events' };
  const event = (id: string, bad = false) => ({ id, bad, customer: 'shop', instance: 'live', source: 'http' }) as Event;

  it('completes the write with the same tokens: every request answered, every row stored once, a retry adds nothing', async () => {
    const stored: Event[] = [];
    const tokens = new Set<string>();
    let failOnce = true;
    const ch = {
      insert: (table: string, rows: Event[], token?: string) => {
        if (table !== 'search_events' || (token && tokens.has(token))) {
          return Promise.resolve(); // ClickHouse's insert deduplication: a token stored once is stored
        }
        if (rows.some((r) => r.bad)) {
          return Promise.reject(Object.assign(new Error('Cannot parse input'), { type: 'CANNOT_PARSE_INPUT_ASSERTION_FAILED' }));
        }
        if (failOnce && rows.some((r) => r.id === '1b')) {
          failOnce = false;
          return Promise.reject(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
        }
        stored.push(...rows);
        if (token) {
          tokens.add(token);
        }
        return Promise.resolve();
      },
    };
    const metrics = {
      insertSeconds: { startTimer: () => () => undefined },
      batchSize: { observe: () => undefined },
      itemsAccepted: { inc: () => undefined },
      rejected: () => undefined,
    };
    const writer = new IngestWriter(ch as unknown as ClickHouseService, metrics as unknown as MetricsService);
    const storedTokens = (asked: readonly RetryToken[]) =>
      Promise.resolve(new Set(asked.map((t) => t.token).filter((t) => stored.some((r) => r.intake_token === t))));
    const batcher = new InsertBatcher<Event>((rows, rejected, token) => writer.write(target, rows, rejected, token), {
      storedTokens,
      retryDelaysMs: [10],
    });
    const r1 = () => [event('1a'), event('1b')].map((r) => ({ ...r, intake_token: 'T1' }));
    const retry: RetryToken = { customer: 'shop', instance: 'live', token: 'T1' };
    const answers = await Promise.all([batcher.add([event('0')], []), batcher.add(r1(), [], retry), batcher.add([event('2', true)], [])]);
    expect(answers.map((a) => [...a.values()].length)).toEqual([0, 0, 1]); // the bad row refused, the rest stored
    await batcher.add(r1(), [], retry); // the client's retry of R1
    expect(stored.map((r) => r.id).sort()).toEqual(['0', '1a', '1b']);
  });
});

describe('InsertBatcher: an addition whose rows go to two tables, each recording its retry token', () => {
  interface Mixed {
    id: string;
    table: 'search_events' | 'interactions';
  }
  const retryTokenOf = (r: Mixed, token: string) => (r.table === 'interactions' ? `${token}:interactions` : token);
  const retry: RetryToken = { customer: 'shop', instance: 'live', token: 'T' };
  const rows = (): Mixed[] => [
    { id: 's', table: 'search_events' },
    { id: 'c', table: 'interactions' },
  ];

  it.each([
    [[], ['s', 'c'], 1],
    [['T'], ['c'], 0],
    [['T:interactions'], ['s'], 0],
    [['T', 'T:interactions'], [], 0],
  ])('with %p stored, writes the rows %p (and %p rejected rows)', async (storedNow, written, rejectedWritten) => {
    const flush = jest.fn<Promise<Refused<Mixed>>, [Mixed[], RejectedEventRow[]]>(() => Promise.resolve(new Map()));
    const storedTokens = jest.fn((tokens: readonly RetryToken[]) =>
      Promise.resolve(new Set(tokens.map((t) => t.token).filter((t) => storedNow.includes(t)))),
    );
    const batcher = new InsertBatcher<Mixed>(flush, { storedTokens, retryTokenOf });
    expect(await batcher.add(rows(), [rejectedRow(2)], retry)).toEqual(new Map());
    expect(storedTokens.mock.calls[0][0].map((t) => t.token)).toEqual(['T', 'T:interactions']);
    const calls = flush.mock.calls;
    expect(calls.flatMap(([r]) => r.map((x) => x.id))).toEqual(written);
    expect(calls.flatMap(([, rej]) => rej)).toHaveLength(rejectedWritten);
  });
});
