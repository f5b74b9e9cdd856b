import type { RejectedEventRow, SearchEventRow } from '@app/contracts';

type Flush = (events: SearchEventRow[], rejected: RejectedEventRow[], token?: string) => Promise<void>;

interface Pending {
  events: readonly SearchEventRow[];
  rejected: readonly RejectedEventRow[];
  resolve: () => void;
  reject: (err: unknown) => void;
}

/**
 * Group commit for the embedded transport: requests arriving while an insert runs share the next one, and
 * each request's promise settles when its rows are durably written (or the insert failed).
 */
export class InsertBatcher {
  private queue: Pending[] = [];
  private flushing = false;

  constructor(
    private readonly flush: Flush,
    private readonly maxRows = 200_000,
  ) {}

  /** Rows with a token get an insert of their own, so a retry of the same request is deduplicated. */
  add(events: readonly SearchEventRow[], rejected: readonly RejectedEventRow[], token?: string): Promise<void> {
    if (token) return this.flush([...events], [...rejected], token);
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ events, rejected, resolve, reject });
      if (!this.flushing) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.flushing = true;
    // Let requests of the same event-loop turn join the first insert.
    await new Promise((r) => setImmediate(r));
    while (this.queue.length > 0) {
      const batch: Pending[] = [];
      let rows = 0;
      while (this.queue.length > 0 && (batch.length === 0 || rows + this.queue[0].events.length <= this.maxRows)) {
        const next = this.queue.shift()!;
        rows += next.events.length;
        batch.push(next);
      }
      try {
        await this.flush(
          batch.flatMap((p) => p.events),
          batch.flatMap((p) => p.rejected),
        );
        for (const p of batch) p.resolve();
      } catch (err) {
        for (const p of batch) p.reject(err);
      }
    }
    this.flushing = false;
  }
}
