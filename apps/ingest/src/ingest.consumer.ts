import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import type { Consumer } from 'kafkajs';
import { AppConfig } from '@app/config';
import { IngestStore, IntakeKinds, type IntakeKind } from '@app/intake';
import { KafkaService } from '@app/kafka';
import { MetricsService } from '@app/metrics';
import { PartitionProgress, STALL_THRESHOLD_MS, type ConsumerHealthView } from './consumer-health';
import { DuplicateOffsets } from './duplicate-offsets';
import { ExactlyOnceBatches, INSERTS_IN_FLIGHT } from './exactly-once-batches';
import { GroupMembership, heartbeatIntervalMs } from './group-membership';
import type { KafkaRow } from './kafka-message';
import { LagProbe } from './lag-probe';
import { OffsetsRepository } from './offsets.repository';
import { barrierAssigner, confirmMembership, installRejoinBarrier, type KafkaGroup } from './rejoin-barrier';

/**
 * The ingest app's Kafka consumer, for search events and catalogue documents: the group-consumer part. It starts
 * kafkajs' consumer and restarts it after any crash, follows its joins (the assignment, readiness) and its commits
 * (progress), probes the broker for lag, and holds the rejoin barrier: kafkajs joins or leaves the group only once
 * nothing of this process is in flight (barrierAssigner, beforeRejoin). Every partition batch goes to the batch
 * part, ExactlyOnceBatches (exactly-once verdicts, the insert with its retries, commits in offset order).
 */
@Injectable()
export class IngestConsumer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(IngestConsumer.name);
  private consumer?: Consumer;
  /** The broker's lag figures of every assigned partition, on a timer (LAG_PROBE_MS). */
  private readonly lagProbe = new LagProbe(
    () => this.kafka.quietAdmin(),
    () => this.config.kafka.groupId,
    this.logger,
  );
  /** Per topic: its kind of items. */
  private readonly topics = new Map<string, IntakeKind<KafkaRow>>();
  /** kafkajs' group of this consumer (handed over by the rejoin barrier): its member id and generation. */
  private kafkaGroup?: KafkaGroup;
  private readonly progress = new PartitionProgress((topic, partition, lag) => this.recordLag(topic, partition, lag));
  /** Whether this process is a member of the group (readiness); set up when the consumer first starts. */
  private readiness?: GroupMembership;
  private stopping = false;
  /** Partitions per topic assigned to this consumer at the last rebalance (read through assignment()). */
  private assigned: Record<string, number[]> = {};
  private duplicateCheck?: NodeJS.Timeout;
  private repairing = false;
  /** The batch part: every partition batch kafkajs fetches, from verdicts to the commit. */
  private readonly batches: ExactlyOnceBatches;

  constructor(
    private readonly config: AppConfig,
    private readonly kafka: KafkaService,
    offsets: OffsetsRepository,
    private readonly metrics: MetricsService,
    store: IngestStore,
    private readonly duplicates: DuplicateOffsets,
    kinds: IntakeKinds,
  ) {
    for (const kind of kinds.all() as unknown as Array<IntakeKind<KafkaRow>>) {
      this.topics.set(kind.topic, kind);
    }
    this.batches = new ExactlyOnceBatches({
      store,
      offsets,
      topics: this.topics,
      group: () => this.kafkaGroup,
      insertsInFlight: config.clickhouse.url ? INSERTS_IN_FLIGHT : 1,
      shareInserts: !config.clickhouse.url,
      logger: this.logger,
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.kafka.enabled) {
      return;
    }
    await this.start();
    this.duplicateCheck = setInterval(() => void this.repairDuplicates(), this.config.kafka.duplicateCheckMs).unref();
  }

  /**
   * Liveness of the consume loop: stalled when an assigned partition's messages have waited for `stallMs` since
   * they arrived (or since its last commit) without a commit, including a partition this process does not fetch
   * (the lag of every assigned partition is asked of the broker every LAG_PROBE_MS).
   */
  health(stallMs = STALL_THRESHOLD_MS): Promise<ConsumerHealthView> {
    return Promise.resolve(this.progress.health(Boolean(this.consumer) && !this.stopping, stallMs));
  }

  /** The partitions per topic assigned at the last rebalance, in order (a copy): the seam the tests read it through. */
  assignment(): Record<string, number[]> {
    return Object.fromEntries(Object.entries(this.assigned).map(([topic, partitions]) => [topic, [...partitions]]));
  }

  /** Readiness of the consumer: a member of its group whose heartbeats the broker answers (GroupMembership). */
  membership(): { joined: boolean; reason?: string } {
    return this.readiness?.state() ?? { joined: false, reason: 'the consumer has not started' };
  }

  /** ConsumerReadiness: why this process's consumer is not ready; undefined when it runs and is a group member. */
  async notReadyReason(): Promise<string | undefined> {
    if (!(await this.health()).running) {
      return 'the consumer does not run';
    }
    const group = this.membership();
    return group.joined ? undefined : (group.reason ?? 'not a member of the consumer group');
  }

  /**
   * Looks for Kafka offsets of this process's partitions stored more than once within INGEST_DUPLICATE_CHECK_HOURS
   * and compensates them (DuplicateOffsets); run every INGEST_DUPLICATE_CHECK_MS. Answers how many it compensated.
   */
  async repairDuplicates(): Promise<number> {
    if (this.repairing) {
      return 0;
    }
    this.repairing = true;
    try {
      const generation = this.kafkaGroup?.generationId ?? null;
      const owned = Object.entries(this.assigned).flatMap(([topic, partitions]) => partitions.map((p) => `${topic}:${p}`));
      // Its own check: a repair that spans a rejoin must not abandon the batches in flight.
      return await this.duplicates.repair(this.config.kafka.duplicateCheckHours, owned, () =>
        confirmMembership(this.kafkaGroup, generation),
      );
    } catch (err) {
      this.logger.warn(`duplicate check failed (${(err as Error).message}); it runs again in ${this.config.kafka.duplicateCheckMs} ms`);
      return 0;
    } finally {
      this.repairing = false;
    }
  }

  /** SIGTERM: kafkajs lets the running batches finish (insert, commit), then leaves the group. */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    this.batches.stop();
    clearInterval(this.duplicateCheck);
    // Batches in flight are stored and committed before the group is left (and the partitions move on).
    await this.batches.settle();
    await this.consumer?.disconnect();
    await this.batches.settle();
    await this.lagProbe.stop();
  }

  private async start(): Promise<void> {
    installRejoinBarrier();
    const sessionTimeout = this.config.kafka.sessionTimeoutMs;
    const consumer = this.kafka.consumer({
      groupId: this.config.kafka.groupId,
      sessionTimeout,
      // Longer than one attempt of an insert can take (two statements of at most 30 s on a server): a member that
      // rejoins only once its attempt settled is not dropped from the rebalance meanwhile.
      rebalanceTimeout: 90_000,
      heartbeatInterval: heartbeatIntervalMs(sessionTimeout),
      partitionAssigners: [barrierAssigner((group) => this.beforeRejoin(group))],
      // Batches are formed by size or time at the fetch: up to 1 MB per partition and 8 MB per fetch, or whatever
      // arrived within 200 ms; each partition batch is one insert (on the embedded engine, waiting ones share one:
      // SharedInserts). The byte caps bound memory, with SharedInserts' SHARED_WAITING_BYTES on the embedded engine.
      maxBytesPerPartition: 1024 * 1024,
      maxBytes: 8 * 1024 * 1024,
      minBytes: 64 * 1024,
      maxWaitTimeInMs: 200,
    });
    this.readiness ??= new GroupMembership(sessionTimeout);
    consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => this.joined(consumer, payload.memberAssignment));
    consumer.on(consumer.events.HEARTBEAT, () => {
      this.batches.heartbeatAnswered();
      this.readiness!.heartbeat();
    });
    consumer.on(consumer.events.CRASH, ({ payload }) => this.readiness!.left(`the consumer crashed (${payload.error.message})`));
    consumer.on(consumer.events.DISCONNECT, () => this.readiness!.left('the consumer left the group (disconnected)'));
    consumer.on(consumer.events.STOP, () => this.readiness!.left('the consumer stopped'));
    // Lag is the end offset minus the committed one (PartitionProgress): a batch tells the end offset it was
    // fetched with, a commit the committed offset, and the broker both every LAG_PROBE_MS.
    consumer.on(consumer.events.START_BATCH_PROCESS, ({ payload }) =>
      this.progress.fetched(payload.topic, payload.partition, Number(payload.highWatermark), Number(payload.firstOffset)),
    );
    consumer.on(consumer.events.COMMIT_OFFSETS, ({ payload }) => {
      for (const { topic, partitions } of payload.topics) {
        for (const { partition, offset } of partitions) {
          this.progress.committed(topic, partition, Number(offset));
        }
      }
    });
    this.lagProbe.every(() => this.probeLag());
    // kafkajs restarts itself after retriable errors only; the consumer must resume alone after any crash.
    consumer.on(consumer.events.CRASH, ({ payload }) => {
      if (payload.restart || this.stopping) {
        return;
      }
      this.logger.error(`consumer crashed (${payload.error.message}); restarting in 1 s`);
      setTimeout(() => void this.restart(consumer), 1000);
    });
    this.consumer = consumer;
    await consumer.connect();
    await consumer.subscribe({ topics: [...this.topics.keys()], fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: 64,
      eachBatch: (payload) => this.batches.handle(payload),
    });
  }

  /** Every join starts clean: no pause survives it (kafkajs keeps pauses across rejoins) and ledgers are re-read. */
  private joined(consumer: Consumer, assignment: Record<string, number[]>): void {
    this.readiness?.joined();
    this.batches.joined();
    consumer.resume([...this.topics.keys()].map((topic) => ({ topic })));
    this.assigned = {};
    for (const topic of this.topics.keys()) {
      this.assigned[topic] = [...(assignment[topic] ?? [])].sort((a, b) => a - b);
      this.logger.log(`assigned partitions ${this.assigned[topic].join(',') || '(none)'} of ${topic}`);
    }
    this.progress.assign(
      Object.entries(this.assigned).flatMap(([topic, partitions]) => partitions.map((partition) => ({ topic, partition }))),
    );
  }

  /** Publishes a partition's lag (ingest_consumer_lag); undefined: no longer assigned, its series goes. */
  private recordLag(topic: string, partition: number, lag: number | undefined): void {
    const labels = { topic, partition: String(partition) };
    if (lag === undefined) {
      this.metrics.consumerLag.remove(labels);
    } else {
      this.metrics.consumerLag.set(labels, lag);
    }
  }

  private async restart(crashed: Consumer): Promise<void> {
    if (this.stopping || this.consumer !== crashed) {
      return;
    }
    await crashed.disconnect().catch(() => undefined);
    this.assigned = {};
    try {
      await this.start();
    } catch (err) {
      this.logger.error(`restart failed (${(err as Error).message}); trying again in 5 s`);
      setTimeout(() => void this.restart(this.consumer!), 5000);
    }
  }

  /** The rejoin barrier, awaited by kafkajs before it joins or leaves the group (ExactlyOnceBatches.beforeRejoin). */
  private async beforeRejoin(group: KafkaGroup): Promise<void> {
    this.kafkaGroup = group;
    await this.batches.beforeRejoin();
  }

  /** Asks the broker how far behind every assigned partition is (high watermark - committed); on a timer. */
  private async probeLag(): Promise<void> {
    const sentAt = Date.now();
    for (const offsets of (await this.lagProbe.offsets(this.progress.assigned())) ?? []) {
      this.progress.probed(offsets.topic, offsets.partition, offsets, sentAt);
    }
  }
}
