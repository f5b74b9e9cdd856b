import { ApiProperty } from '@nestjs/swagger';
/** A consumer that has had messages waiting and made no progress on them for this long is stalled (liveness). */
export const STALL_THRESHOLD_MS = 60_000;

interface PartitionState {
  topic: string;
  partition: number;
  /** Messages waiting behind the partition's position, as last seen (batch events or a broker probe). */
  lag: number;
  /** When a batch of it last completed, or when it was assigned. */
  progressAt: number;
}

/** The ingest app's liveness answer. */
export class ConsumerHealth {
  @ApiProperty({ description: 'The consume loop runs' })
  running!: boolean;

  @ApiProperty({ description: 'A partition has had messages waiting for 60 s without progress' })
  stalled!: boolean;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Messages waiting, over the assigned partitions' })
  lag!: number;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Milliseconds since the oldest waiting partition made progress' })
  sinceProgressMs!: number;
}

/**
 * Per assigned partition: its lag and when it last made progress. A partition that has had lag for longer than the
 * threshold without a completed batch is stalled, whether its batch is stuck (storage down) or it is not fetched
 * at all (paused); the lag of a partition that is not fetched comes from the broker (`probe`).
 */
export class PartitionProgress {
  private readonly partitions = new Map<string, PartitionState>();

  /** A new assignment: partitions kept keep their lag (a pause may have survived the rejoin), the rest go. */
  assign(topicPartitions: Array<{ topic: string; partition: number }>, now = Date.now()): void {
    const assigned = new Map(topicPartitions.map(({ topic, partition }) => [`${topic}:${partition}`, { topic, partition }]));
    for (const key of this.partitions.keys()) if (!assigned.has(key)) this.partitions.delete(key);
    for (const [key, tp] of assigned) if (!this.partitions.has(key)) this.partitions.set(key, { ...tp, lag: 0, progressAt: now });
  }

  lag(topic: string, partition: number, lag: number): void {
    const state = this.partitions.get(`${topic}:${partition}`);
    if (state) state.lag = lag;
  }

  progressed(topic: string, partition: number, lag: number, now = Date.now()): void {
    const state = this.partitions.get(`${topic}:${partition}`);
    if (state) Object.assign(state, { lag, progressAt: now });
  }

  /** Partitions without progress for `idleMs`: the ones whose lag the broker should tell. */
  idle(idleMs: number, now = Date.now()): Array<{ topic: string; partition: number }> {
    return [...this.partitions.values()].filter((s) => now - s.progressAt >= idleMs).map(({ topic, partition }) => ({ topic, partition }));
  }

  health(running: boolean, stallMs = STALL_THRESHOLD_MS, now = Date.now()): ConsumerHealth {
    let lag = 0;
    let stalled = false;
    let oldest = now;
    for (const s of this.partitions.values()) {
      lag += s.lag;
      if (s.lag > 0) {
        oldest = Math.min(oldest, s.progressAt);
        if (now - s.progressAt > stallMs) stalled = true;
      }
    }
    return { running, stalled, lag, sinceProgressMs: now - oldest };
  }
}
