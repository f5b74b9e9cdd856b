import { ApiProperty, ApiSchema } from '@nestjs/swagger';
/** A partition whose messages have waited this long without progress is stalled (liveness). */
export const STALL_THRESHOLD_MS = 60_000;

export interface TopicPartition {
  topic: string;
  partition: number;
}

interface PartitionState extends TopicPartition {
  /** The partition's end offset (high watermark) and the group's committed offset, as last seen. */
  end?: number;
  committed?: number;
  /** Messages waiting: end - committed (0 while either is unknown). */
  lag: number;
  /**
   * Since when the messages waiting now have waited without progress: when the lag went from 0 to more, or the
   * last commit that left some waiting; unset while none wait.
   */
  waitingSince?: number;
  /** When a batch or a commit last told of it: a broker probe sent before then may be older. */
  toldAt: number;
}

/** The ingest app's liveness answer. */
@ApiSchema({ name: 'ConsumerHealth' }) // the schema name generated clients already use
export class ConsumerHealthView {
  @ApiProperty({ description: 'The consume loop runs' })
  running!: boolean;

  @ApiProperty({ description: "A partition's waiting messages have waited for 60 s without progress" })
  stalled!: boolean;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Messages waiting, over the assigned partitions' })
  lag!: number;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description:
      'Milliseconds the longest-waiting messages have waited without progress: since they arrived on a partition ' +
      'that had none waiting, or since its last commit, whichever is later (0 when nothing waits)',
  })
  sinceProgressMs!: number;
}

/**
 * Per assigned partition: how many messages wait (its end offset minus the group's committed offset) and since
 * when they have waited without progress. Batches tell the end offsets they were fetched with, commits the
 * committed offsets, and a broker probe both, for every assigned partition, fetched or not. A partition whose
 * messages have waited for longer than the threshold without a commit is stalled, whether its batch is stuck
 * (storage down) or it is not fetched at all (paused); an idle spell before the messages arrived does not count.
 */
export class PartitionProgress {
  private readonly partitions = new Map<string, PartitionState>();

  /** `onLag` hears every change of a partition's lag, and `undefined` when the partition is no longer assigned. */
  constructor(private readonly onLag: (topic: string, partition: number, lag: number | undefined) => void = () => undefined) {}

  /** A new assignment: partitions kept keep their figures (a pause may have survived the rejoin), the rest go. */
  assign(topicPartitions: TopicPartition[], now = Date.now()): void {
    const assigned = new Map(topicPartitions.map(({ topic, partition }) => [`${topic}:${partition}`, { topic, partition }]));
    for (const [key, { topic, partition }] of this.partitions) {
      if (assigned.has(key)) {
        continue;
      }
      this.partitions.delete(key);
      this.onLag(topic, partition, undefined);
    }
    for (const [key, tp] of assigned) {
      if (this.partitions.has(key)) {
        continue;
      }
      this.partitions.set(key, { ...tp, lag: 0, toldAt: now });
      this.onLag(tp.topic, tp.partition, 0);
    }
  }

  assigned(): TopicPartition[] {
    return [...this.partitions.values()].map(({ topic, partition }) => ({ topic, partition }));
  }

  /** A batch starts: the end offset it was fetched with; its first offset stands for the committed one until known. */
  fetched(topic: string, partition: number, end: number, first: number, now = Date.now()): void {
    const state = this.partitions.get(`${topic}:${partition}`);
    if (!state) {
      return;
    }
    state.end = Math.max(state.end ?? end, end);
    state.committed ??= first;
    state.toldAt = now;
    this.update(state, false, now);
  }

  /** A commit went through: progress. */
  committed(topic: string, partition: number, offset: number, now = Date.now()): void {
    const state = this.partitions.get(`${topic}:${partition}`);
    if (!state) {
      return;
    }
    const before = state.committed;
    state.committed = Math.max(before ?? offset, offset);
    state.toldAt = now;
    this.update(state, before === undefined || state.committed > before, now);
  }

  /**
   * The broker's figures, asked at `sentAt`. They replace what is known unless a batch or commit told of the
   * partition since (then the higher offsets win), so offsets that went back (a topic recreated) are taken too.
   */
  probed(topic: string, partition: number, offsets: { end: number; committed: number }, sentAt: number, now = Date.now()): void {
    const state = this.partitions.get(`${topic}:${partition}`);
    if (!state) {
      return;
    }
    const before = state.committed;
    const newer = state.toldAt >= sentAt;
    state.end = newer ? Math.max(state.end ?? offsets.end, offsets.end) : offsets.end;
    state.committed = newer ? Math.max(before ?? offsets.committed, offsets.committed) : offsets.committed;
    this.update(state, before !== undefined && state.committed > before, now);
  }

  health(running: boolean, stallMs = STALL_THRESHOLD_MS, now = Date.now()): ConsumerHealthView {
    let lag = 0;
    let oldest = now;
    for (const s of this.partitions.values()) {
      lag += s.lag;
      if (s.waitingSince !== undefined) {
        oldest = Math.min(oldest, s.waitingSince);
      }
    }
    return { running, stalled: now - oldest > stallMs, lag, sinceProgressMs: now - oldest };
  }

  /** The lag from the offsets; the clock starts when messages start waiting, again at progress, and stops at 0. */
  private update(state: PartitionState, progressed: boolean, now: number): void {
    const lag = state.end === undefined || state.committed === undefined ? 0 : Math.max(0, state.end - state.committed);
    if (lag === 0) {
      state.waitingSince = undefined;
    } else if (state.waitingSince === undefined || progressed) {
      state.waitingSince = now;
    }
    if (lag === state.lag) {
      return;
    }
    state.lag = lag;
    this.onLag(state.topic, state.partition, lag);
  }
}
