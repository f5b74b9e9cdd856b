import type { RejectedEventRow } from '@app/contracts';
import type { Refused } from './ingest-writer';

/** Writes rows and rejected rows; answers the rows the store refused (by identity). */
type Flush<Row> = (rows: Row[], rejected: RejectedEventRow[], token?: string) => Promise<Refused<Row>>;

interface Pending<Row> {
  events: readonly Row[];
  rejected: readonly RejectedEventRow[];
  resolve: (refused: Refused<Row>) => void;
  reject: (err: unknown) => void;
}

export interface AddOptions {
  /** An insert of its own with this deduplication token (a client retry of the same request is dropped). */
  token?: string;
}

/**
 * Group commit: additions arriving while an insert runs (or in the same turn of the event loop) share the next
 * insert, and each addition's promise settles when its rows are durably written (answering those of its rows the
 * store refused) or the insert failed. Used by POST /events and PUT /documents on the embedded transport.
 */
export class InsertBatcher<Row> {
  private queue: Pending<Row>[] = [];
  private flushing = false;

  constructor(
    private readonly flush: Flush<Row>,
    private readonly options: { maxRows?: number } = {},
  ) {}

  add(events: readonly Row[], rejected: readonly RejectedEventRow[], options: AddOptions = {}): Promise<Refused<Row>> {
    if (options.token) {
      return this.flush([...events], [...rejected], options.token);
    }
    return new Promise<Refused<Row>>((resolve, reject) => {
      this.queue.push({ events, rejected, resolve, reject });
      if (!this.flushing) {
        void this.drain();
      }
    });
  }

  private async drain(): Promise<void> {
    this.flushing = true;
    // Let additions of the same moment join the first insert.
    await new Promise((r) => setImmediate(r));
    const maxRows = this.options.maxRows ?? 200_000;
    while (this.queue.length > 0) {
      const batch: Pending<Row>[] = [];
      let rows = 0;
      while (this.queue.length > 0 && (batch.length === 0 || rows + this.queue[0].events.length <= maxRows)) {
        const next = this.queue.shift()!;
        rows += next.events.length;
        batch.push(next);
      }
      try {
        const refused = await this.flush(
          batch.flatMap((p) => p.events),
          batch.flatMap((p) => p.rejected),
        );
        for (const p of batch) {
          p.resolve(
            refused.size === 0 ? refused : new Map(p.events.filter((row) => refused.has(row)).map((row) => [row, refused.get(row)!])),
          );
        }
      } catch (err) {
        for (const p of batch) {
          p.reject(err);
        }
      }
    }
    this.flushing = false;
  }
}
