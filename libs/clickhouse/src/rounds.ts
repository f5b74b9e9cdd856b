export interface RoundOptions<In> {
  /** Rounds start at least this far apart: at most 1000 / minIntervalMs a second, at any rate of additions. */
  minIntervalMs?: number;
  /** A round takes items up to this total size (never fewer than one item); the rest wait for the next. */
  maxSize?: number;
  size?: (item: In) => number;
}

interface Waiting<In, Out> {
  item: In;
  resolve: (out: Out) => void;
  reject: (err: unknown) => void;
}

/**
 * Items added while a round runs, before the interval since the last round has passed, or in the same turn of the
 * event loop are handled together by the next round (`run`, one call for all of them, answering one result per item
 * in their order); a failed round fails each of its items. Used by the Kafka transport for its claims, their reads
 * and its producer sends, by InsertBatcher, and by the nonce lookups.
 */
export class Rounds<In, Out> {
  private queue: Waiting<In, Out>[] = [];
  private running = false;
  private draining: Promise<void> = Promise.resolve();
  private lastStart = 0;

  constructor(
    private readonly run: (items: In[]) => Promise<readonly Out[]>,
    private readonly options: RoundOptions<In> = {},
  ) {}

  add(item: In): Promise<Out> {
    return new Promise<Out>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (!this.running) {
        this.running = true;
        this.draining = this.drain();
      }
    });
  }

  /** Settles once every item added so far has been answered. */
  idle(): Promise<void> {
    return this.draining;
  }

  private async drain(): Promise<void> {
    await new Promise((r) => setImmediate(r));
    while (this.queue.length > 0) {
      // A timer may fire a millisecond or two early by the wall clock: wait until the interval really has passed.
      for (let wait = this.waitMs(); wait > 0; wait = this.waitMs()) {
        await new Promise((r) => setTimeout(r, wait));
      }
      this.lastStart = Date.now();
      const round = this.next();
      try {
        const outs = await this.run(round.map((w) => w.item));
        round.forEach((w, i) => w.resolve(outs[i]));
      } catch (err) {
        for (const w of round) {
          w.reject(err);
        }
      }
    }
    this.running = false;
  }

  /** How long until the next round may start. */
  private waitMs(): number {
    return this.lastStart + (this.options.minIntervalMs ?? 0) - Date.now();
  }

  private sizeOf(item: In): number {
    return this.options.size ? this.options.size(item) : 1;
  }

  private next(): Waiting<In, Out>[] {
    const { maxSize } = this.options;
    let count = 0;
    let total = 0;
    while (count < this.queue.length && (maxSize === undefined || count === 0 || total + this.sizeOf(this.queue[count].item) <= maxSize)) {
      total += this.sizeOf(this.queue[count].item);
      count++;
    }
    return this.queue.splice(0, count);
  }
}
