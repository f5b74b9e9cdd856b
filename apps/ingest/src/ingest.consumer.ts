import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import type { Admin, Batch, Consumer, EachBatchPayload } from 'kafkajs';
import { AppConfig } from '@app/config';
import type { RejectedEventRow } from '@app/contracts';
import { IngestStore, InsertBatcher, IntakeKinds, VersionSequence, validateItems, type IntakeItem, type IntakeKind } from '@app/intake';
import { KafkaService, isRebalance } from '@app/kafka';
import { MetricsService } from '@app/metrics';
import { PartitionProgress, STALL_THRESHOLD_MS, type ConsumerHealth } from './consumer-health';
import { decodeMessage, messageHash, type KafkaRow } from './kafka-message';
import { OffsetsRepository } from './offsets.repository';
import { PartitionLedger } from './partition-ledger';
import { PartitionStates, type PartitionState } from './partition-states';
import { DEDUP_WINDOW, RecentEventIds } from './recent-event-ids';
import { afterBoth, settled } from './pipeline';
import { barrierAssigner, installRejoinBarrier } from './rejoin-barrier';
import { BatchAbandonedError, retryUntilDone, settledWithHeartbeats } from './retry-policy';

/**
 * Rows per insert at most (batches of several partitions share one). The embedded engine's memory grows with the
 * insert (measured peak RSS of the ingest app: 708 MB at 25,000, 867 MB at the 35,000 a fetch brings), its rate
 * little (41,700 vs 49,600 events/s).
 */
const INSERT_MAX_ROWS = 25_000;

/**
 * The ingest app's Kafka consumer, for search events and catalogue documents. The exactly-once rule, per
 * partition batch (exactlyOnce):
 *   1. skip the offsets ClickHouse already holds for these very messages (PartitionLedger), and events whose id
 *      the partition stored within its last DEDUP_WINDOW messages (a producer's retry: RecentEventIds); documents
 *      get versions that grow with their offsets (VersionSequence);
 *   2. insert the rest, invalid ones as rejected rows, with the token topic:partition:first-last (retried with
 *      capped backoff while storage fails, nothing committed);
 *   3. only then commit, in offset order.
 * Pipelined: a batch goes back to kafkajs once its insert is under way and the partition's batch before it is
 * stored and committed, so the next fetch and validation run while it is inserted; at most one batch per partition
 * is in flight beyond what kafkajs waits for.
 * kafkajs joins or leaves the group only once nothing of this process is in flight (barrierAssigner, beforeRejoin):
 * a rebalance abandons the batches in flight (no insert attempt starts after it) and the attempts under way settle
 * first, so nothing lands after a partition's next owner read what is stored.
 */
@Injectable()
export class IngestConsumer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(IngestConsumer.name);
  private consumer?: Consumer;
  private admin?: Admin;
  /** Per topic: its kind of items, and a batcher through which concurrent batches of all partitions share one insert. */
  private readonly topics = new Map<string, { kind: IntakeKind<KafkaRow>; batcher: InsertBatcher<KafkaRow> }>();
  /** Per assigned partition: what is stored (offsets), the event ids of its recent messages, document versions. */
  private readonly partitions = new PartitionStates((topic, partition, first) => this.openPartition(topic, partition, first));
  private readonly progress = new PartitionProgress();
  private lastProbeAt = 0;
  private stopping = false;
  /**
   * Set when a heartbeat fails (a rebalance, or the coordinator out of reach): every insert retried gives up until
   * the consumer has rejoined or a heartbeat went through again.
   */
  private abandoning = false;
  /** Partitions per topic assigned to this consumer at the last rebalance. */
  assigned: Record<string, number[]> = {};
  /** Per partition, the insert and commit of its batch that went back to kafkajs before they were done. */
  private readonly inFlight = new Map<string, Promise<void>>();
  /**
   * Set when a batch handed back failed: kafkajs has fetched past it, so every batch is refused as a rebalance until
   * the consumer rejoined (and fetches from the committed offsets again).
   */
  private mustRejoin = false;

  constructor(
    private readonly config: AppConfig,
    private readonly kafka: KafkaService,
    private readonly offsets: OffsetsRepository,
    private readonly metrics: MetricsService,
    private readonly store: IngestStore,
    kinds: IntakeKinds,
  ) {
    for (const kind of kinds.all() as unknown as Array<IntakeKind<KafkaRow>>) {
      const batcher = new InsertBatcher<KafkaRow>((rows, rejected, token) => this.writeWithRetry(kind, rows, rejected, token!), {
        lingerMs: 20,
        maxRows: INSERT_MAX_ROWS,
      });
      this.topics.set(kind.topic, { kind, batcher });
    }
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.kafka.enabled) await this.start();
  }

  /**
   * Liveness of the consume loop: stalled when an assigned partition has had messages waiting for `stallMs`
   * without a completed batch, including a partition this process no longer fetches (its lag is asked of the
   * broker, at most every 2 s).
   */
  async health(stallMs = STALL_THRESHOLD_MS): Promise<ConsumerHealth> {
    if (this.consumer && Date.now() - this.lastProbeAt > 2000) {
      this.lastProbeAt = Date.now();
      // Waited for at most 1 s: a slow broker must not make the probe itself time out (the next one sees it).
      const probe = this.probeLag(Math.min(5000, stallMs / 2)).catch((err: Error) => this.logger.warn(`lag probe failed: ${err.message}`));
      await Promise.race([probe, new Promise((r) => setTimeout(r, 1000).unref())]);
    }
    return this.progress.health(Boolean(this.consumer) && !this.stopping, stallMs);
  }

  /** SIGTERM: kafkajs lets the running batches finish (insert, commit), then leaves the group. */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    // Batches in flight are stored and committed before the group is left (and the partitions move on).
    await this.settleInFlight();
    await this.consumer?.disconnect();
    await this.settleInFlight();
    await this.admin?.disconnect();
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
      heartbeatInterval: Math.min(3000, Math.floor(sessionTimeout / 3)),
      partitionAssigners: [barrierAssigner(() => this.beforeRejoin())],
      // Batches are formed by size or time at the fetch: up to 1 MB per partition and 8 MB per fetch, or whatever
      // arrived within 200 ms; concurrent batches then share one insert (20 ms linger). The byte caps bound memory.
      maxBytesPerPartition: 1024 * 1024,
      maxBytes: 8 * 1024 * 1024,
      minBytes: 64 * 1024,
      maxWaitTimeInMs: 200,
    });
    consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => this.joined(consumer, payload.memberAssignment));
    consumer.on(consumer.events.HEARTBEAT, () => (this.abandoning = false));
    // kafkajs' offsetLag is what remains after the batch: when a batch starts, the batch itself waits too (so one
    // stuck on storage still shows); when it ends, only the remainder does.
    consumer.on(consumer.events.START_BATCH_PROCESS, ({ payload }) =>
      this.recordLag(payload.topic, payload.partition, Number(payload.offsetLag) + payload.batchSize),
    );
    consumer.on(consumer.events.END_BATCH_PROCESS, ({ payload }) =>
      this.recordLag(payload.topic, payload.partition, Number(payload.offsetLag), true),
    );
    // kafkajs restarts itself after retriable errors only; the consumer must resume alone after any crash.
    consumer.on(consumer.events.CRASH, ({ payload }) => {
      if (payload.restart || this.stopping) return;
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
      eachBatch: (payload) => this.handleBatch(payload),
    });
  }

  /** Every join starts clean: no pause survives it (kafkajs keeps pauses across rejoins) and ledgers are re-read. */
  private joined(consumer: Consumer, assignment: Record<string, number[]>): void {
    this.abandoning = false;
    this.mustRejoin = false;
    this.partitions.clear();
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

  private recordLag(topic: string, partition: number, waiting: number, done = false): void {
    if (done) this.progress.progressed(topic, partition, waiting);
    else this.progress.lag(topic, partition, waiting);
    this.metrics.consumerLag.set({ topic, partition: String(partition) }, waiting);
  }

  private async restart(crashed: Consumer): Promise<void> {
    if (this.stopping || this.consumer !== crashed) return;
    await crashed.disconnect().catch(() => undefined);
    this.assigned = {};
    try {
      await this.start();
    } catch (err) {
      this.logger.error(`restart failed (${(err as Error).message}); trying again in 5 s`);
      setTimeout(() => void this.restart(this.consumer!), 5000);
    }
  }

  private async handleBatch(payload: EachBatchPayload): Promise<void> {
    const { topic, partition } = payload.batch;
    try {
      await this.exactlyOnce(payload);
    } catch (err) {
      // Its insert may have landed though the batch threw: what is stored is read again before the next batch.
      this.partitions.drop(topic, partition);
      throw err;
    }
  }

  private async exactlyOnce(payload: EachBatchPayload): Promise<void> {
    const { batch } = payload;
    if (batch.isEmpty() || !payload.isRunning() || payload.isStale()) return;
    const { topic, partition, messages } = batch;
    const { kind, batcher } = this.topics.get(topic)!;
    const key = `${topic}:${partition}`;
    const first = Number(messages[0].offset);
    const lastOffset = messages[messages.length - 1].offset;
    const last = Number(lastOffset);
    const earlier = this.inFlight.get(key);
    const ownership = {
      heartbeat: () => payload.heartbeat(),
      owned: () => payload.isRunning() && !payload.isStale(),
      abandon: () => (this.abandoning = true),
    };
    try {
      if (this.mustRejoin) throw new BatchAbandonedError();
      // A state read again from ClickHouse (after a failure, or offsets fetched again) must see the batch before.
      const state = await this.partitions.get(topic, partition, first, () => settled(earlier));

      // 1. Only what ClickHouse does not hold yet for these very messages, validated, and no event twice.
      const { rows, rejected } = await this.toStore(kind, batch, state);

      // 2. Insert (shared with other partitions' batches); the state counts the rows as stored from now on, and is
      // read again if the insert fails.
      const insert = batcher.add(rows, rejected, { key: `${key}:${first}-${last}` });
      state.ledger.inserted(last);
      state.handledThrough = last;
      if (state.recent) for (const row of rows) state.recent.add(row.customer, row.instance, kind.eventId!(row));

      // 3. Commit once this insert and the partition's batch before are done. A crash before it re-delivers the batch
      // and the ledger finds the rows stored; a failed commit loses nothing for the same reason.
      // Any failure reaches kafkajs as a rebalance, so it rejoins and fetches from the committed offset again (a
      // batch handed back has its offset resolved already).
      const done = afterBoth(earlier, insert, () => this.commit(payload, topic, partition, last)).catch((err: unknown) => {
        throw isRebalance(err) ? err : new BatchAbandonedError();
      });
      this.inFlight.set(key, done);
      void done
        .catch(() => {
          this.partitions.drop(topic, partition);
          this.mustRejoin = true;
        })
        .finally(() => this.inFlight.get(key) === done && this.inFlight.delete(key));
      // Handed back once the batch before is done (kept alive by heartbeats while it is retried, and its error is
      // thrown here); while stopping, only once this one is done.
      const handBack = !this.stopping && payload.isRunning();
      if (handBack) payload.resolveOffset(lastOffset);
      await settledWithHeartbeats(handBack ? (earlier ?? Promise.resolve()) : done, ownership);
      if (!handBack) payload.resolveOffset(lastOffset);
    } catch (err) {
      // Past a failed batch, only a rejoin makes kafkajs fetch from the committed offsets again.
      throw this.mustRejoin && !isRebalance(err) ? new BatchAbandonedError() : err;
    }
  }

  /**
   * Awaited by kafkajs before it joins or leaves the group: what is in flight settles first (no further attempt of a
   * retried insert starts), so nothing of it lands after the partitions' next owners read what is stored.
   */
  private async beforeRejoin(): Promise<void> {
    if (this.inFlight.size === 0) return;
    this.abandoning = true;
    await this.settleInFlight();
  }

  /** Commits the offset after `last`; a rebalance error is thrown (so kafkajs rejoins), any other one logged. */
  private async commit(payload: EachBatchPayload, topic: string, partition: number, last: number): Promise<void> {
    try {
      await payload.commitOffsetsIfNecessary({ topics: [{ topic, partitions: [{ partition, offset: String(last + 1) }] }] });
    } catch (err) {
      if (isRebalance(err)) throw err;
      this.logger.warn(`commit of ${topic}:${partition}@${last + 1} failed, the rows are stored: ${(err as Error).message}`);
    }
  }

  /** Waits until no insert or commit of this process is in flight (batches handed back to kafkajs included). */
  private async settleInFlight(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight.values()]);
  }

  /**
   * The rows and rejected rows of a batch to insert: messages whose offsets ClickHouse already holds for these very
   * messages are skipped (PartitionLedger), the rest validated in the intake's one loop; events whose id the
   * partition stored within its last DEDUP_WINDOW messages are skipped (a producer's retry: RecentEventIds), and
   * documents get versions that grow with their offsets (VersionSequence).
   */
  private async toStore(
    kind: IntakeKind<KafkaRow>,
    batch: Batch,
    state: PartitionState,
  ): Promise<{ rows: KafkaRow[]; rejected: RejectedEventRow[] }> {
    const { topic, partition, messages } = batch;
    const { ledger, recent, versions } = state;
    const now = Date.now();
    const items: IntakeItem[] = [];
    const verdicts = { stored: 0, replaced: 0, duplicate: 0 };
    for (const message of messages) {
      const offset = Number(message.offset);
      const hash = messageHash(message);
      const pending = ledger.verdict(offset, hash);
      const verdict = typeof pending === 'string' ? pending : await pending;
      if (verdict !== 'new') verdicts[verdict]++;
      if (verdict !== 'stored')
        items.push(decodeMessage(message, { now, source: 'kafka', topic, partition, offset, timestamp: message.timestamp }, hash));
    }
    const { rows: valid, rejected } = validateItems(kind, items);
    const rows: KafkaRow[] = [];
    const inBatch = new RecentEventIds();
    for (const row of valid) {
      const id = kind.eventId?.(row);
      if (id !== undefined && (recent!.has(row.customer, row.instance, id) || inBatch.has(row.customer, row.instance, id))) {
        verdicts.duplicate++;
        continue;
      }
      if (id !== undefined) inBatch.add(row.customer, row.instance, id);
      if (versions) kind.order!(row, versions);
      rows.push(row);
    }
    this.logVerdicts(`${topic}:${partition}`, messages[0].offset, messages[messages.length - 1].offset, verdicts);
    return { rows, rejected };
  }

  private logVerdicts(where: string, first: string, last: string, verdicts: { stored: number; replaced: number; duplicate: number }): void {
    if (verdicts.duplicate > 0)
      this.logger.log(
        `${where}: ${verdicts.duplicate} events of ${first}-${last} repeat an event id stored ` +
          `within the last ${DEDUP_WINDOW} messages; skipping them`,
      );
    if (verdicts.stored > 0) this.logger.log(`${where}: ${verdicts.stored} offsets from ${first} to ${last} already stored; skipping them`);
    if (verdicts.replaced > 0) {
      this.logger.warn(
        `${where}: ${verdicts.replaced} offsets from ${first} hold other messages than the ones stored there ` +
          '(topic recreated or cluster replaced); storing them',
      );
    }
  }

  private async openPartition(topic: string, partition: number, first: number) {
    const { kind } = this.topics.get(topic)!;
    return {
      ledger: await PartitionLedger.open(this.offsets, kind.table, topic, partition),
      recent: kind.eventId
        ? new RecentEventIds(await this.offsets.recentEventIds(topic, partition, first + DEDUP_WINDOW, 2 * DEDUP_WINDOW))
        : undefined,
      versions: kind.order ? new VersionSequence(await this.offsets.lastDocumentVersion(topic, partition)) : undefined,
    };
  }

  /**
   * The insert of a shared batch, retried with capped backoff while storage fails: nothing is committed, fetching
   * stops (the next batches of its partitions wait for it), and every retry sends the same rows with the same token,
   * so a partly applied attempt is deduplicated. Rows the store refuses for their data never reach this loop
   * (IngestWriter isolates them).
   */
  private async writeWithRetry(kind: IntakeKind<KafkaRow>, rows: KafkaRow[], rejected: RejectedEventRow[], token: string) {
    let failed = false;
    const refused = await retryUntilDone(() => this.store.store(kind, rows, rejected, token), {
      abandoned: () => this.stopping || this.abandoning,
      onFailure: (err, attempt, delay) => {
        failed = true;
        this.logger.warn(`insert failed (attempt ${attempt}, retry in ${Math.round(delay)} ms): ${(err as Error).message}`);
      },
    });
    if (failed) this.logger.log('storage insert settled; fetching resumes');
    return refused;
  }

  /** Asks the broker how far behind the partitions without recent progress are (high watermark - committed). */
  private async probeLag(idleMs: number): Promise<void> {
    const idle = this.progress.idle(idleMs);
    if (idle.length === 0) return;
    if (!this.admin) {
      this.admin = this.kafka.admin();
      await this.admin.connect();
    }
    for (const topic of new Set(idle.map((p) => p.topic))) {
      const [ends, committed] = await Promise.all([
        this.admin.fetchTopicOffsets(topic),
        this.admin.fetchOffsets({ groupId: this.config.kafka.groupId, topics: [topic] }),
      ]);
      const done = new Map(committed[0]?.partitions.filter((p) => Number(p.offset) >= 0).map((p) => [p.partition, Number(p.offset)]) ?? []);
      for (const end of ends) {
        if (idle.some((p) => p.topic === topic && p.partition === end.partition))
          this.progress.lag(topic, end.partition, Math.max(0, Number(end.high) - (done.get(end.partition) ?? Number(end.low))));
      }
    }
  }
}
