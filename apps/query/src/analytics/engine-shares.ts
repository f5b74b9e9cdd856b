/** How long a customer counts as using the engine after its last analytics query ended. */
export const GRACE_MS = 1_000;

interface Customer {
  running: number;
  waiting: Array<() => void>;
  /** When its last query started or ended. */
  lastSeen: number;
}

/**
 * The embedded engine's threads shared out between the customers using it: while several customers run analytics
 * queries, each may start one only while it runs fewer than its share, max(1, floor(cores / customers)) (and never
 * more than ANALYTICS_CONCURRENCY, which its slots enforce); alone, a customer has every slot of its own. A
 * customer counts as using the engine while it runs or waits, and for GRACE_MS after, so that a customer sending
 * one request after the other keeps its share between them. Nothing is interrupted: a customer above its share
 * (others just arrived) starts nothing new until it is below it, and every customer's first query starts at once.
 */
export class EngineShares {
  private readonly customers = new Map<string, Customer>();
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly cores: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Resolves once `customer` may start a query; `leave` must follow when it has ended. */
  enter(customer: string): Promise<void> {
    let c = this.customers.get(customer);
    if (!c) {
      this.customers.set(customer, (c = { running: 0, waiting: [], lastSeen: this.now() }));
    }
    const entry = c;
    entry.lastSeen = this.now();
    if (entry.waiting.length === 0 && entry.running < this.share()) {
      entry.running++;
      return Promise.resolve();
    }
    return new Promise((resolve) => entry.waiting.push(resolve));
  }

  leave(customer: string): void {
    const c = this.customers.get(customer);
    if (!c) {
      return;
    }
    c.running--;
    c.lastSeen = this.now();
    this.wake();
  }

  /** The queries each customer may run at once now. */
  share(): number {
    const now = this.now();
    let using = 0;
    for (const [name, c] of this.customers) {
      if (c.running > 0 || c.waiting.length > 0 || now - c.lastSeen < GRACE_MS) {
        using++;
      } else {
        this.customers.delete(name);
      }
    }
    return Math.max(1, Math.floor(this.cores / Math.max(1, using)));
  }

  /** Starts what the shares allow; while some wait, looks again when the next idle customer's grace ends. */
  private wake(): void {
    const share = this.share();
    let waiting = false;
    for (const c of this.customers.values()) {
      while (c.waiting.length > 0 && c.running < share) {
        c.running++;
        c.waiting.shift()!();
      }
      waiting ||= c.waiting.length > 0;
    }
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!waiting) {
      return;
    }
    const now = this.now();
    const ends = [...this.customers.values()]
      .filter((c) => c.running === 0 && c.waiting.length === 0)
      .map((c) => c.lastSeen + GRACE_MS - now);
    if (ends.length > 0) {
      this.timer = setTimeout(() => this.wake(), Math.max(0, Math.min(...ends))).unref();
    }
  }
}
