import type { Admin } from 'kafkajs';
import type { TopicPartition } from './consumer-health';

/** How often the broker is asked for the lag of every assigned partition (docs/decisions/0021-health-that-tells-the-truth.md). */
export const LAG_PROBE_MS = 2000;

export interface PartitionOffsets extends TopicPartition {
  /** The high watermark: the offset the next message will get. */
  end: number;
  /** The group's committed offset: the next one to consume (the low watermark while nothing is committed). */
  committed: number;
}

/**
 * Asks the broker for the end offsets of partitions and the group's committed offsets, one probe at a time, on a
 * timer. A probe that fails returns nothing and throws nothing; it is logged when probes start failing and when
 * they answer again, not at every attempt (a broker that is down fails one every LAG_PROBE_MS).
 */
export class LagProbe {
  private admin?: Admin;
  private running = false;
  private failing = false;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly createAdmin: () => Admin,
    private readonly groupId: () => string,
    private readonly logger: { warn(message: string): void; log(message: string): void },
  ) {}

  /** Runs `tick` every LAG_PROBE_MS until stopped (once, however often it is called). */
  every(tick: () => Promise<void>): void {
    this.timer ??= setInterval(() => void tick(), LAG_PROBE_MS).unref();
  }

  /** The offsets of `partitions`, or undefined when the broker did not answer or a probe is under way already. */
  async offsets(partitions: TopicPartition[]): Promise<PartitionOffsets[] | undefined> {
    if (this.running) {
      return undefined;
    }
    this.running = true;
    try {
      const offsets = await this.fetch(partitions);
      if (this.failing) {
        this.logger.log('lag probe answers again');
      }
      this.failing = false;
      return offsets;
    } catch (err) {
      if (!this.failing) {
        this.logger.warn(`lag probe failed (${(err as Error).message}); lag figures stay as they were until it answers again`);
      }
      this.failing = true;
      // A client whose connection failed is replaced (kafkajs' admin does not connect again by itself).
      const admin = this.admin;
      this.admin = undefined;
      await admin?.disconnect().catch(() => undefined);
      return undefined;
    } finally {
      this.running = false;
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.admin?.disconnect();
  }

  private async fetch(partitions: TopicPartition[]): Promise<PartitionOffsets[]> {
    if (partitions.length === 0) {
      return [];
    }
    if (!this.admin) {
      const admin = this.createAdmin();
      this.admin = admin;
      await admin.connect();
    }
    const offsets: PartitionOffsets[] = [];
    for (const topic of new Set(partitions.map((p) => p.topic))) {
      const [ends, committed] = await Promise.all([
        this.admin.fetchTopicOffsets(topic),
        this.admin.fetchOffsets({ groupId: this.groupId(), topics: [topic] }),
      ]);
      const done = new Map(committed[0]?.partitions.filter((p) => Number(p.offset) >= 0).map((p) => [p.partition, Number(p.offset)]) ?? []);
      for (const end of ends) {
        if (partitions.some((p) => p.topic === topic && p.partition === end.partition)) {
          offsets.push({ topic, partition: end.partition, end: Number(end.high), committed: done.get(end.partition) ?? Number(end.low) });
        }
      }
    }
    return offsets;
  }
}
