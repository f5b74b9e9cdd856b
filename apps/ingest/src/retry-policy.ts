import { isRebalance } from '@app/kafka';

/** Capped exponential backoff with jitter: 200 ms, 400 ms, ... up to `maxMs`, each between half and all of it. */
export function backoffMs(attempt: number, maxMs = 10_000, random = Math.random): number {
  return Math.min(maxMs, 100 * 2 ** Math.min(attempt, 10)) * (0.5 + random() / 2);
}

/**
 * Thrown instead of an attempt once the batch is abandoned (the group rebalances or the process stops). It carries
 * the type kafkajs treats as a rebalance, so the consumer rejoins at once instead of retrying its fetch loop.
 */
export class BatchAbandonedError extends Error {
  readonly type = 'REBALANCE_IN_PROGRESS';
  constructor() {
    super('batch abandoned: the group is rebalancing or the consumer is stopping; nothing was committed');
    this.name = 'BatchAbandonedError';
  }
}

export interface RetryOptions {
  /** Checked before every attempt and while waiting: once true, no further attempt is sent. */
  abandoned(): boolean;
  onFailure(err: unknown, attempt: number, delayMs: number): void;
}

/**
 * Runs `attempt` until it succeeds. Attempts never overlap, and none starts once the work is abandoned, so when
 * this settles no attempt of it is in flight any more: an abandoned batch cannot land later.
 */
export async function retryUntilDone<T>(attempt: () => Promise<T>, options: RetryOptions): Promise<T> {
  for (let n = 1; ; n++) {
    if (options.abandoned()) {
      throw new BatchAbandonedError();
    }
    try {
      return await attempt();
    } catch (err) {
      if (err instanceof BatchAbandonedError) {
        throw err;
      }
      const delay = backoffMs(n);
      options.onFailure(err, n, delay);
      const until = Date.now() + delay;
      while (Date.now() < until && !options.abandoned()) {
        await new Promise((r) => setTimeout(r, Math.min(100, until - Date.now())));
      }
    }
  }
}

export interface BatchOwnership {
  /** kafkajs' heartbeat (sent when its interval passed); throws when the membership is lost or rebalancing. */
  heartbeat(): Promise<void>;
  /** Whether the batch still belongs to this consumer (kafkajs' isRunning() and not isStale()). */
  owned(): boolean;
  /** Abandons the work: no further attempt of it starts. */
  abandon(): void;
}

/**
 * Waits for `work` while heartbeating every second, so the group membership outlives a long retry. When a heartbeat
 * fails (the group rebalances, the coordinator is out of reach) or the batch is no longer owned (the consumer
 * stops or crashed), the work is abandoned and the error is thrown only once `work` has settled: kafkajs rejoins
 * only after every batch returned, so nothing sent for this batch can land after the partition's next owner read
 * what is stored.
 */
export async function settledWithHeartbeats(work: Promise<unknown>, batch: BatchOwnership): Promise<void> {
  let done = false;
  const settled = work.finally(() => (done = true));
  settled.catch(() => undefined);
  while (!done) {
    await Promise.race([settled, new Promise((r) => setTimeout(r, 1000))]).catch(() => undefined);
    if (done) {
      break;
    }
    let lost: Error | undefined;
    try {
      await batch.heartbeat();
      if (!batch.owned()) {
        lost = new BatchAbandonedError();
      }
    } catch (err) {
      // A rebalance error goes to kafkajs as it is; any other failure (the coordinator out of reach) is handed
      // over as a rebalance too, so kafkajs rejoins instead of fetching on with a membership it may have lost.
      lost = isRebalance(err) ? (err as Error) : new BatchAbandonedError();
    }
    if (lost !== undefined) {
      batch.abandon();
      await settled.catch(() => undefined);
      throw lost;
    }
  }
  await settled;
}
