import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import type { Batch, Consumer, EachBatchPayload } from 'kafkajs';
import { AppConfig } from '@app/config';
import type { RejectedEventRow } from '@app/contracts';
import pLimit from 'p-limit';
import { IngestStore, IntakeKinds, VersionSequence, validateItems, type IntakeItem, type IntakeKind } from '@app/intake';
import { KafkaService, isRebalance } from '@app/kafka';
import { MetricsService } from '@app/metrics';
import { PartitionProgress, STALL_THRESHOLD_MS, type ConsumerHealth } from './consumer-health';
import { DuplicateOffsets } from './duplicate-offsets';
import { GroupMembership, heartbeatIntervalMs } from './group-membership';
import { decodeMessage, messageHash, type KafkaRow } from './kafka-message';
import { LagProbe } from './lag-probe';
import { OffsetsRepository } from './offsets.repository';
import { PartitionLedger } from './partition-ledger';
import { PartitionStates, type PartitionState } from './partition-states';
import { DEDUP_WINDOW, RecentEventIds } from './recent-event-ids';
import { afterBoth, settled } from './pipeline';
import { barrierAssigner, confirmMembership, installRejoinBarrier, type KafkaGroup } from './rejoin-barrier';
import { BatchAbandonedError, retryUntilDone, settledWithHeartbeats } from './retry-policy';

/**
 * The deduplication token of a partition batch's insert: the same messages at the same offsets of a partition get
 * the same token in every process, so ClickHouse drops a second insert of them (rollups included) whoever formed
 * it. The hashes of the first and last message tell a recreated topic's new messages at old offsets apart.
 */
export const batchToken = (topic: string, partition: number, first: number, last: number, hashes: string) =>
  `${topic}:${partition}:${first}-${last}:${hashes}`;

/**
 * Inserts of this process in flight at once, fewer than the store's insert connections (INSERT_CONNECTIONS), so an
 * insert whose membership was just confirmed is sent at once. Batches beyond it wait before the check, not after.
 */
export const INSERTS_IN_FLIGHT = 8;

/**
 * The ingest app's Kafka consumer, for search events and catalogue documents. The exactly-once rule, per
 * partition batch (exactlyOnce):
 *   1. skip the offsets ClickHouse already holds for these very messages (PartitionLedger), and events whose id
 *      the partition stored within its last DEDUP_WINDOW messages (a producer's retry: RecentEventIds); documents
 *      get versions that grow with their offsets (VersionSequence);
 *   2. insert the rest, invalid ones as rejected rows, one insert per partition batch with the token
 *      topic:partition:first-last (batchToken), retried with capped backoff while storage fails, nothing committed;
 *      right before each insert is sent, a heartbeat round trip confirms that this process is still a member of the
 *      generation that fetched the batch (confirmMembership), else the batch is abandoned unsent;
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
  /** Per assigned partition: what is stored (offsets), the event ids of its recent messages, document versions. */
  private readonly partitions = new PartitionStates((topic, partition, first) => this.openPartition(topic, partition, first));
  private readonly progress = new PartitionProgress((topic, partition, lag) => this.recordLag(topic, partition, lag));
  /** Whether this process is a member of the group (readiness); set up when the consumer first starts. */
  private readiness?: GroupMembership;
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
  private duplicateCheck?: NodeJS.Timeout;
  /**
   * Inserts in flight: a slot is taken before the membership check, so none waits after it. INSERTS_IN_FLIGHT on a
   * server; one at a time on the embedded engine, which dies with the process: a crash then never cuts an insert
   * short beside the one that just returned (its rows in search_events without their rollup rows).
   */
  private readonly insertSlots: ReturnType<typeof pLimit>;
  /** Failed insert attempts since storage last took one: logged once when failing starts and once when it ends. */
  private failedInserts = 0;
  private repairing = false;

  constructor(
    private readonly config: AppConfig,
    private readonly kafka: KafkaService,
    private readonly offsets: OffsetsRepository,
    private readonly metrics: MetricsService,
    private readonly store: IngestStore,
    private readonly duplicates: DuplicateOffsets,
    kinds: IntakeKinds,
  ) {
    for (const kind of kinds.all() as unknown as Array<IntakeKind<KafkaRow>>) this.topics.set(kind.topic, kind);
    this.insertSlots = pLimit(config.clickhouse.url ? INSERTS_IN_FLIGHT : 1);
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.kafka.enabled) return;
    await this.start();
    this.duplicateCheck = setInterval(() => void this.repairDuplicates(), this.config.kafka.duplicateCheckMs).unref();
  }

  /**
   * Liveness of the consume loop: stalled when an assigned partition's messages have waited for `stallMs` since
   * they arrived (or since its last commit) without a commit, including a partition this process does not fetch
   * (the lag of every assigned partition is asked of the broker every LAG_PROBE_MS).
   */
  health(stallMs = STALL_THRESHOLD_MS): Promise<ConsumerHealth> {
    return Promise.resolve(this.progress.health(Boolean(this.consumer) && !this.stopping, stallMs));
  }

  /** Readiness of the consumer: a member of its group whose heartbeats the broker answers (GroupMembership). */
  membership(): { joined: boolean; reason?: string } {
    return this.readiness?.state() ?? { joined: false, reason: 'the consumer has not started' };
  }

  /**
   * Looks for Kafka offsets of this process's partitions stored more than once within INGEST_DUPLICATE_CHECK_HOURS
   * and compensates them (DuplicateOffsets); run every INGEST_DUPLICATE_CHECK_MS. Answers how many it compensated.
   */
  async repairDuplicates(): Promise<number> {
    if (this.repairing) return 0;
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
    clearInterval(this.duplicateCheck);
    // Batches in flight are stored and committed before the group is left (and the partitions move on).
    await this.settleInFlight();
    await this.consumer?.disconnect();
    await this.settleInFlight();
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
      // arrived within 200 ms; each partition batch is one insert. The byte caps bound memory.
      maxBytesPerPartition: 1024 * 1024,
      maxBytes: 8 * 1024 * 1024,
      minBytes: 64 * 1024,
      maxWaitTimeInMs: 200,
    });
    this.readiness ??= new GroupMembership(sessionTimeout);
    consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => this.joined(consumer, payload.memberAssignment));
    consumer.on(consumer.events.HEARTBEAT, () => {
      this.abandoning = false;
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
      for (const { topic, partitions } of payload.topics)
        for (const { partition, offset } of partitions) this.progress.committed(topic, partition, Number(offset));
    });
    this.lagProbe.every(() => this.probeLag());
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
    this.readiness?.joined();
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

  /** Publishes a partition's lag (ingest_consumer_lag); undefined: no longer assigned, its series goes. */
  private recordLag(topic: string, partition: number, lag: number | undefined): void {
    const labels = { topic, partition: String(partition) };
    if (lag === undefined) this.metrics.consumerLag.remove(labels);
    else this.metrics.consumerLag.set(labels, lag);
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
    const kind = this.topics.get(topic)!;
    const key = `${topic}:${partition}`;
    const first = Number(messages[0].offset);
    const lastOffset = messages[messages.length - 1].offset;
    const last = Number(lastOffset);
    const earlier = this.inFlight.get(key);
    const generation = this.kafkaGroup?.generationId ?? null;
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

      // 2. Insert, the partition batch alone (an identical range from any process has the same token); the state
      // counts the rows as stored from now on, and is read again if the insert fails.
      const hashes = `${messageHash(messages[0])}-${messageHash(messages[messages.length - 1])}`;
      const insert = this.writeWithRetry(kind, rows, rejected, batchToken(topic, partition, first, last, hashes), generation);
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
  private async beforeRejoin(group: KafkaGroup): Promise<void> {
    this.kafkaGroup = group;
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
    const kind = this.topics.get(topic)!;
    return {
      ledger: await PartitionLedger.open(this.offsets, kind.table, topic, partition),
      recent: kind.eventId
        ? new RecentEventIds(await this.offsets.recentEventIds(topic, partition, first + DEDUP_WINDOW, 2 * DEDUP_WINDOW))
        : undefined,
      versions: kind.order ? new VersionSequence(await this.offsets.lastDocumentVersion(topic, partition)) : undefined,
    };
  }

  /**
   * The insert of a partition batch, retried with capped backoff while storage fails: nothing is committed, fetching
   * stops (the next batches of its partition wait for it), and every retry sends the same rows with the same token,
   * so a partly applied attempt is deduplicated. Rows the store refuses for their data never reach this loop
   * (IngestWriter isolates them). Right before each statement is sent, the membership of the generation that
   * fetched the batch is confirmed (confirmMembership).
   */
  private async writeWithRetry(
    kind: IntakeKind<KafkaRow>,
    rows: KafkaRow[],
    rejected: RejectedEventRow[],
    token: string,
    generation: number | null,
  ) {
    const beforeSend = () => this.confirmMembership(generation);
    const refused = await retryUntilDone(() => this.insertSlots(() => this.store.store(kind, rows, rejected, token, beforeSend)), {
      abandoned: () => this.stopping || this.abandoning,
      // Once per outage, not once per attempt of every partition: the first failure, then the recovery with a count.
      onFailure: (err, attempt, delay) => {
        const message = (err as Error).message;
        if (this.failedInserts++ === 0)
          this.logger.warn(`insert failed, retried with backoff until storage takes inserts again (counted meanwhile): ${message}`);
        else this.logger.debug(`insert failed (attempt ${attempt}, retry in ${Math.round(delay)} ms): ${message}`);
      },
    });
    if (this.failedInserts > 0) {
      this.logger.log(`storage takes inserts again after ${this.failedInserts} failed attempts; fetching resumes`);
      this.failedInserts = 0;
    }
    return refused;
  }

  /**
   * Right before an insert is sent: this process is still a member of `generation` of the group (confirmMembership),
   * or the insert is abandoned unsent, and so is every further attempt of the batches in flight.
   */
  private async confirmMembership(generation: number | null): Promise<void> {
    try {
      await confirmMembership(this.kafkaGroup, generation);
    } catch (err) {
      this.abandoning = true;
      this.logger.log(`membership not confirmed before an insert (${(err as Error).message}); abandoning the batch unsent`);
      throw new BatchAbandonedError();
    }
  }

  /** Asks the broker how far behind every assigned partition is (high watermark - committed); on a timer. */
  private async probeLag(): Promise<void> {
    const sentAt = Date.now();
    for (const offsets of (await this.lagProbe.offsets(this.progress.assigned())) ?? [])
      this.progress.probed(offsets.topic, offsets.partition, offsets, sentAt);
  }
}
