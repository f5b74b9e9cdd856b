import { RetryLaterError } from '@app/errors';
import type { RejectedEventRow } from '@app/contracts';
import { IntakeTransport, MAX_ITEMS_IN_FLIGHT } from './intake-transport';
import type { IntakeView, ValidatedBatch } from './validate-items';

/** A transport whose work is whatever the test hands it, through the base class's gate. */
class GatedTransport extends IntakeTransport {
  send(): Promise<IntakeView> {
    throw new Error('not used');
  }

  run(table: string, batch: ValidatedBatch<unknown>, work: () => Promise<IntakeView>): Promise<IntakeView> {
    return this.bounded(table, batch, work);
  }
}

const ANSWER: IntakeView = { accepted: 0, rejected: [] };

function batchOf(rows: number, rejected = 0): ValidatedBatch<unknown> {
  return {
    rows: new Array<unknown>(rows).fill({}),
    indexes: [],
    rejected: new Array<RejectedEventRow>(rejected).fill({} as RejectedEventRow),
    reasons: [],
  };
}

/** Work that settles when the test says so. */
function held(): { work: () => Promise<IntakeView>; release(): void; fail(): void } {
  let settle!: (ok: boolean) => void;
  const done = new Promise<boolean>((r) => (settle = r));
  return {
    work: () => done.then((ok) => (ok ? ANSWER : Promise.reject(new Error('storage failed')))),
    release: () => settle(true),
    fail: () => settle(false),
  };
}

describe('IntakeTransport.bounded', () => {
  it('takes a request over the limit when nothing of its table is in flight, then refuses the next at once', async () => {
    const t = new GatedTransport();
    const big = held();
    const first = t.run('search_events', batchOf(MAX_ITEMS_IN_FLIGHT + 1), big.work);
    expect(t.itemsInFlightOf('search_events')).toBe(MAX_ITEMS_IN_FLIGHT + 1);
    const refused = t.run('search_events', batchOf(1), () => Promise.resolve(ANSWER));
    await expect(refused).rejects.toBeInstanceOf(RetryLaterError);
    await expect(refused).rejects.toThrow('The intake is busy');
    expect(t.itemsInFlightOf('search_events')).toBe(MAX_ITEMS_IN_FLIGHT + 1);
    big.release();
    await expect(first).resolves.toBe(ANSWER);
    expect(t.itemsInFlightOf('search_events')).toBe(0);
  });

  it('counts rejected items too, up to the limit exactly', async () => {
    const t = new GatedTransport();
    const a = held();
    const first = t.run('search_events', batchOf(MAX_ITEMS_IN_FLIGHT - 10, 5), a.work);
    const fits = held();
    const second = t.run('search_events', batchOf(3, 2), fits.work); // exactly the limit
    expect(t.itemsInFlightOf('search_events')).toBe(MAX_ITEMS_IN_FLIGHT);
    await expect(t.run('search_events', batchOf(0, 1), () => Promise.resolve(ANSWER))).rejects.toThrow('The intake is busy');
    a.release();
    fits.release();
    await Promise.all([first, second]);
    expect(t.itemsInFlightOf('search_events')).toBe(0);
  });

  it('releases the items when the work fails or throws before its first await', async () => {
    const t = new GatedTransport();
    const failing = held();
    const failed = t.run('search_events', batchOf(10), failing.work);
    failing.fail();
    await expect(failed).rejects.toThrow('storage failed');
    await expect(
      t.run('search_events', batchOf(10), () => {
        throw new Error('thrown at once');
      }),
    ).rejects.toThrow('thrown at once');
    expect(t.itemsInFlightOf('search_events')).toBe(0);
  });

  it('keeps one count per table: a full catalogue upload never refuses search events', async () => {
    const t = new GatedTransport();
    const upload = held();
    const documents = t.run('documents', batchOf(MAX_ITEMS_IN_FLIGHT), upload.work);
    await expect(t.run('documents', batchOf(1), () => Promise.resolve(ANSWER))).rejects.toThrow('The intake is busy');
    await expect(t.run('search_events', batchOf(1), () => Promise.resolve(ANSWER))).resolves.toBe(ANSWER);
    upload.release();
    await documents;
    expect(t.itemsInFlightOf('documents')).toBe(0);
  });
});
