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
  /** The first failure (e.g. pause fetching). */
  onFirstFailure?(): void;
}

/**
 * Runs `attempt` until it succeeds. Attempts never overlap, and none starts once the work is abandoned, so when
 * this settles no attempt of it is in flight any more: an abandoned batch cannot land later.
 */
export async function retryUntilDone<T>(attempt: () => Promise<T>, options: RetryOptions): Promise<T> {
  for (let n = 1; ; n++) {
    if (options.abandoned()) throw new BatchAbandonedError();
    try {
      return await attempt();
    } catch (err) {
      if (n === 1) options.onFirstFailure?.();
      const delay = backoffMs(n);
      options.onFailure(err, n, delay);
      const until = Date.now() + delay;
      while (Date.now() < until && !options.abandoned()) await new Promise((r) => setTimeout(r, Math.min(100, until - Date.now())));
    }
  }
}

/**
 * Waits for `work` while calling `heartbeat` every second, so the group membership outlives a long retry. When a
 * heartbeat fails (e.g. the group rebalances), `onHeartbeatError` abandons the work, and the error is thrown only
 * once `work` has settled: kafkajs rejoins only after every batch returned, so nothing sent for this batch can
 * land after the partition's next owner read what is stored.
 */
export async function settledWithHeartbeats(work: Promise<unknown>, heartbeat: () => Promise<void>, onHeartbeatError: (err: unknown) => void): Promise<void> {
  let done = false;
  const settled = work.finally(() => (done = true));
  settled.catch(() => undefined);
  while (!done) {
    await Promise.race([settled, new Promise((r) => setTimeout(r, 1000))]).catch(() => undefined);
    if (done) break;
    try {
      await heartbeat();
    } catch (err) {
      onHeartbeatError(err);
      await settled.catch(() => undefined);
      throw err;
    }
  }
  await settled;
}
