import { Injectable } from '@nestjs/common';
import { availableParallelism } from 'node:os';
import { finished, type Readable } from 'node:stream';
import pLimit from 'p-limit';
import { ClickHouseService, type LaneOptions } from '@app/clickhouse';
import { AppConfig } from '@app/config';
import { RetryLaterError } from '@app/errors';
import { EngineShares } from './engine-shares';

/** Requests of one customer that may wait for a slot, per slot of ANALYTICS_CONCURRENCY. */
export const QUEUE_PER_SLOT = 4;

/** One customer's slots: the queue (p-limit) and the requests that hold or wait for a slot. */
interface Customer {
  limit: ReturnType<typeof pLimit>;
  inUse: number;
}

/** The lane of an analytics slot: as many threads as leave room for one more customer's query beside `concurrency`. */
export function analyticsLane(concurrency: number): LaneOptions {
  return { maxThreads: Math.max(1, Math.floor(availableParallelism() / (concurrency + 1))) };
}

/**
 * The analytics queries a customer runs at once in this process: ANALYTICS_CONCURRENCY of them, then a queue of
 * QUEUE_PER_SLOT per slot, beyond it 429 with Retry-After. Each customer has slots and a queue of their own, so a
 * customer who floods waits behind nobody but themselves and makes no one else wait; a slot runs its queries in
 * a lane of the engine of its own (ClickHouseService.inLane), with at most as many threads as leave room for one
 * more customer's query beside a customer's full slots. On the embedded engine, which shares this machine's cores,
 * a slot's queries also wait for the customer's share of the engine while other customers use it (EngineShares).
 * Answers from the answer cache take no slot (AnswerCache asks for one only to compute).
 */
@Injectable()
export class AnalyticsSlots {
  private readonly customers = new Map<string, Customer>();
  private readonly concurrency: number;
  private readonly queueLength: number;
  private readonly lane: LaneOptions;
  /** Embedded engine only: a server has cores of its own, which this process does not know. */
  private readonly shares?: EngineShares;
  /** How long a slot is held, as a moving average: what Retry-After is estimated from. */
  private heldMs = 1_000;

  constructor(
    config: AppConfig,
    private readonly ch: ClickHouseService,
  ) {
    this.concurrency = config.analyticsConcurrency;
    this.queueLength = QUEUE_PER_SLOT * this.concurrency;
    this.lane = analyticsLane(this.concurrency);
    if (ch.embedded) {
      this.shares = new EngineShares(availableParallelism());
    }
  }

  /**
   * `work` in one of the customer's slots, once one is free; RetryLaterError when the customer's queue is
   * full. With `until`, the slot is held until the stream it names has closed (an answer sent as it is read).
   */
  async run<T>(customer: string, work: () => Promise<T>, until?: (answer: T) => Readable): Promise<T> {
    const release = await this.acquire(customer);
    try {
      const answer = await this.engine(customer, () => this.ch.inLane(work, this.lane));
      if (until) {
        finished(until(answer), release);
      } else {
        release();
      }
      return answer;
    } catch (err) {
      release();
      throw err;
    }
  }

  /** `work` once the customer's share of the embedded engine allows one more query. */
  private async engine<T>(customer: string, work: () => Promise<T>): Promise<T> {
    if (!this.shares) {
      return work();
    }
    await this.shares.enter(customer);
    try {
      return await work();
    } finally {
      this.shares.leave(customer);
    }
  }

  /** Waits for a slot of the customer's; resolves with what gives it back (once, however often it is called). */
  private acquire(customer: string): Promise<() => void> {
    let c = this.customers.get(customer);
    if (!c) {
      this.customers.set(customer, (c = { limit: pLimit(this.concurrency), inUse: 0 }));
    }
    const entry = c;
    if (entry.inUse >= this.concurrency + this.queueLength) {
      return Promise.reject(this.refusal(entry.inUse));
    }
    entry.inUse++;
    return new Promise((granted) => {
      void entry.limit(
        () =>
          new Promise<void>((done) => {
            const started = Date.now();
            let held = true;
            granted(() => {
              if (!held) {
                return;
              }
              held = false;
              this.heldMs = 0.8 * this.heldMs + 0.2 * (Date.now() - started);
              if (--entry.inUse === 0) {
                this.customers.delete(customer);
              }
              done();
            });
          }),
      );
    });
  }

  private refusal(inUse: number): RetryLaterError {
    const seconds = Math.max(1, Math.ceil((this.heldMs * inUse) / this.concurrency / 1000));
    return new RetryLaterError(
      `Too many analytics queries at once: this customer's ANALYTICS_CONCURRENCY (${this.concurrency}) are running and ` +
        `${this.queueLength} more are waiting, the most that may wait; retry after ${seconds} s`,
      seconds,
    );
  }
}
