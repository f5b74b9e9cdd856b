import type { Logger } from '@nestjs/common';

/**
 * When a background pass runs (the engagement pass, the dimension pass): every `everyMs` (0: only when asked) and on
 * refresh(), one at a time. A failed pass is logged and runs again at the next tick; shutdown waits for the pass
 * running and the one asked for after it.
 */
export class PassSchedule {
  private timer?: NodeJS.Timeout;
  /** The pass running, and the one that begins after it. */
  private running?: Promise<number>;
  private next?: Promise<number>;

  constructor(
    private readonly name: string,
    private readonly everyMs: number,
    private readonly logger: Logger,
    private readonly pass: () => Promise<number>,
  ) {}

  start(): void {
    if (this.everyMs > 0) {
      this.timer = setInterval(() => void this.tick(), this.everyMs);
      this.timer.unref();
      void this.tick();
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.next?.catch(() => undefined);
    await this.running?.catch(() => undefined);
  }

  /**
   * A pass that begins after this call: after the one running, if any (callers meanwhile share it). Answers what the
   * pass answers (the hours it computed).
   */
  refresh(): Promise<number> {
    this.next ??= (this.running ?? Promise.resolve(0))
      .catch(() => 0)
      .then(() => {
        this.next = undefined;
        this.running = this.pass().finally(() => (this.running = undefined));
        return this.running;
      });
    return this.next;
  }

  private async tick(): Promise<void> {
    try {
      await this.refresh();
    } catch (err) {
      this.logger.warn(`${this.name} failed (${(err as Error).message}); it runs again in ${this.everyMs} ms`);
    }
  }
}
