import type { Logger } from '@nestjs/common';
import { createHash } from 'node:crypto';
import type { EachBatchPayload } from 'kafkajs';
import pLimit from 'p-limit';
import type { IngestStore, IntakeKind } from '@app/intake';
import { isRebalance } from '@app/kafka';
import { openPartition, toStore } from './batch-verdicts';
import { messageHash, valueBytes, type KafkaRow } from './kafka-message';
import type { OffsetsRepository } from './offsets.repository';
import { PartitionStates } from './partition-states';
import { SharedInserts, type BatchInsert } from './shared-inserts';
import { afterBoth, settled } from './pipeline';
import { confirmMembership, type KafkaGroup } from './rejoin-barrier';
import { BatchAbandonedError, retryUntilDone, settledWithHeartbeats } from './retry-policy';

/**
 * The deduplication token of a partition batch's insert: the same messages at the same offsets of a partition, of
 * which the same offsets are written, get the same token in every process, so ClickHouse drops a second insert of
 * them (rollups included) whoever formed it. The hashes of the first and last message tell a recreated topic's new
 * messages at old offsets apart. The digest of the offsets written tells what is left of a batch delivered again,
 * after part of it was stored, from the whole: the engine drops an insert whose token it stored whatever its rows,
 * and a split write (IngestWriter) derives its halves' tokens from this one, so the rest written under the whole's
 * token could be dropped as a repeat of a half.
 */
export const batchToken = (topic: string, partition: number, first: number, last: number, hashes: string, written: readonly number[]) =>
  `${topic}:${partition}:${first}-${last}:${hashes}:${createHash('sha256').update(written.join(',')).digest('hex').slice(0, 16)}`;

/**
 * Inserts of this process in flight at once, fewer than the store's insert connections (INSERT_CONNECTIONS), so an
 * insert whose membership was just confirmed is sent at once. Batches beyond it wait before the check, not after.
 */
export const INSERTS_IN_FLIGHT = 8;

/** What the batch part works with; the group part (IngestConsumer) hands it over. */
export interface BatchesDeps {
  /** Where a partition batch is inserted (only its `store`). */
  store: Pick<IngestStore, 'store'>;
  /** What ClickHouse holds of a partition, read when its state is (re)opened. */
  offsets: OffsetsRepository;
  /** Per topic: its kind of items. */
  topics: ReadonlyMap<string, IntakeKind<KafkaRow>>;
  /** kafkajs' group of the consumer now (handed over by the rejoin barrier): its member id and generation. */
  group(): KafkaGroup | undefined;
  /**
   * Inserts in flight: a slot is taken before the membership check, so none waits after it. INSERTS_IN_FLIGHT on a
   * server; one at a time on the embedded engine, which dies with the process: a crash then never cuts an insert
   * short beside the one that just returned (its rows in search_events without their rollup rows).
   */
  insertsInFlight: number;
  /** On the embedded engine (one insert in flight, no other writer): waiting batches share an insert (SharedInserts). */
  shareInserts: boolean;
  logger: Pick<Logger, 'log' | 'warn' | 'debug'>;
}

/**
 * The batch part of the ingest consumer: kafkajs hands it every partition batch (handle), and it applies the
 * exactly-once rule (exactlyOnce):
 *   1. skip the offsets ClickHouse already holds for these very messages (PartitionLedger), and events whose id
 *      the partition stored within its last DEDUP_WINDOW messages (a producer's retry: RecentEventIds); documents
 *      get versions that grow with their offsets (VersionSequence): toStore, in batch-verdicts.ts;
 *   2. insert the rest, invalid ones as rejected rows, one insert per partition batch with the token
 *      topic:partition:first-last and what is written of it (batchToken), or on the embedded engine several waiting
 *      batches in one (SharedInserts), retried with capped backoff while storage fails, nothing committed;
 *      right before each insert is sent, a heartbeat round trip confirms that this process is still a member of the
 *      generation that fetched the batch (confirmMembership), else the batch is abandoned unsent;
 *   3. only then commit, in offset order.
 * Pipelined: a batch goes back to kafkajs once its insert is under way and the partition's batch before it is
 * stored and committed, so the next fetch and validation run while it is inserted: one batch per partition in flight
 * beyond what kafkajs waits for. On the embedded engine, while the batches waiting for its insert leave room (rows
 * and bytes: SharedInserts.hasRoom), a batch goes back at once: a broker that hands out little per fetch fills it.
 * The group part tells it of the group's lifecycle: a join (joined), an answered heartbeat (heartbeatAnswered), a
 * rejoin or leave about to happen (beforeRejoin: the batches in flight are abandoned, no insert attempt starts
 * after it, and the attempts under way settle first, so nothing lands after a partition's next owner read what is
 * stored), and the shutdown (stop, settle).
 */
export class ExactlyOnceBatches {
  /** Per assigned partition: what is stored (offsets), the event ids of its recent messages, document versions. */
  private readonly partitions = new PartitionStates((topic, partition, first) =>
    openPartition(this.deps.offsets, this.deps.topics.get(topic)!, topic, partition, first),
  );
  /** Per partition, the insert and commit of its latest batch that went back to kafkajs before they were done. */
  private readonly inFlight = new Map<string, Promise<void>>();
  /**
   * Set when a heartbeat fails (a rebalance, or the coordinator out of reach): retried inserts give up until a rejoin
   * or a heartbeat that went through again.
   */
  private abandoning = false;
  /**
   * Set when a batch handed back failed: kafkajs has fetched past it, so every batch is refused as a rebalance until
   * the consumer rejoined (and fetches from the committed offsets again).
   */
  private mustRejoin = false;
  private stopping = false;
  private readonly insertSlots: ReturnType<typeof pLimit>;
  /** Failed storage attempts since storage last answered: logged once when failing starts and once when it ends. */
  private failedAttempts = 0;
  /** Set when the batches waiting for the one insert slot share an insert (BatchesDeps.shareInserts). */
  private readonly shared?: SharedInserts;

  constructor(private readonly deps: BatchesDeps) {
    this.insertSlots = pLimit(deps.insertsInFlight);
    this.shared = deps.shareInserts ? new SharedInserts((group) => this.insertWithRetry(group)) : undefined;
  }

  /** kafkajs' eachBatch. */
  async handle(payload: EachBatchPayload): Promise<void> {
    try {
      await this.exactlyOnce(payload);
    } catch (err) {
      // Its insert may have landed though the batch threw: what is stored is read again before the next batch.
      this.partitions.drop(payload.batch.topic, payload.batch.partition);
      throw err;
    }
  }

  /** Every join starts clean: nothing abandoned or refused any more, and what is stored is read again. */
  joined(): void {
    this.abandoning = false;
    this.mustRejoin = false;
    this.partitions.clear();
  }

  /** A heartbeat went through: inserts retried no longer give up. */
  heartbeatAnswered(): void {
    this.abandoning = false;
  }

  /**
   * Awaited before kafkajs joins or leaves the group: what is in flight settles first (no further attempt of a
   * retried insert starts), so nothing of it lands after the partitions' next owners read what is stored.
   */
  async beforeRejoin(): Promise<void> {
    if (this.inFlight.size === 0) {
      return;
    }
    this.abandoning = true;
    await this.settle();
  }

  /** SIGTERM: retried inserts give up (first attempts go), batches are handed back only once stored and committed. */
  stop(): void {
    this.stopping = true;
  }

  /** Waits until no insert or commit of this process is in flight (batches handed back to kafkajs included). */
  async settle(): Promise<void> {
    while (this.inFlight.size > 0) {
      await Promise.allSettled([...this.inFlight.values()]);
    }
  }

  private async exactlyOnce(payload: EachBatchPayload): Promise<void> {
    const { batch } = payload;
    if (batch.isEmpty() || !payload.isRunning() || payload.isStale()) {
      return;
    }
    const { topic, partition, messages } = batch;
    const kind = this.deps.topics.get(topic)!;
    const key = `${topic}:${partition}`;
    const first = Number(messages[0].offset);
    const lastOffset = messages[messages.length - 1].offset;
    const last = Number(lastOffset);
    const earlier = this.inFlight.get(key);
    const generation = this.deps.group()?.generationId ?? null;
    const ownership = {
      heartbeat: () => payload.heartbeat(),
      owned: () => payload.isRunning() && !payload.isStale(),
      abandon: () => (this.abandoning = true),
    };
    try {
      if (this.mustRejoin) {
        throw new BatchAbandonedError();
      }
      // 1. Only what ClickHouse does not hold yet for these very messages, validated, and no event twice. A state
      // read again from ClickHouse (after a failure, or offsets fetched again) must see the batch before. Reading is
      // retried while storage fails, like the insert, heartbeating meanwhile.
      const reading = this.withRetry(async () => {
        try {
          const state = await this.partitions.get(topic, partition, first, () => settled(earlier));
          return { state, ...(await toStore(kind, batch, state, this.deps.logger)) };
        } catch (err) {
          this.partitions.drop(topic, partition);
          throw err;
        }
      }, `reading what ${topic}:${partition} stored`);
      await settledWithHeartbeats(reading, ownership);
      const { state, rows, rejected } = await reading;

      // 2. Insert (on a server alone: an identical range from any process has the same token; else SharedInserts);
      // the state counts the rows as stored from now on, and is read again if the insert fails.
      const hashes = `${messageHash(messages[0])}-${messageHash(messages[messages.length - 1])}`;
      const written = [...rows, ...rejected].map((r) => r.offset);
      const token = batchToken(topic, partition, first, last, hashes, written);
      const batchInsert = { kind, rows, rejected, token, generation, bytes: valueBytes(messages) };
      const insert = this.shared ? this.shared.insert(batchInsert) : this.insertWithRetry(batchInsert);
      state.ledger.inserted(last);
      state.handledThrough = last;
      if (state.recent) {
        for (const row of rows) {
          state.recent.add(row.customer, row.instance, kind.eventId!(row));
        }
      }

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
      // thrown here), or at once while the shared insert has room (an error then fails the next batch, mustRejoin);
      // while stopping, only once this one is done.
      const handBack = !this.stopping && payload.isRunning();
      if (handBack) {
        payload.resolveOffset(lastOffset);
      }
      const waitFor = !handBack ? done : this.shared?.hasRoom() ? undefined : earlier;
      await settledWithHeartbeats(waitFor ?? Promise.resolve(), ownership);
      if (!handBack) {
        payload.resolveOffset(lastOffset);
      }
    } catch (err) {
      // Past a failed batch, only a rejoin makes kafkajs fetch from the committed offsets again.
      throw this.mustRejoin && !isRebalance(err) ? new BatchAbandonedError() : err;
    }
  }

  /** Commits the offset after `last`; a rebalance error is thrown (so kafkajs rejoins), any other one logged. */
  private async commit(payload: EachBatchPayload, topic: string, partition: number, last: number): Promise<void> {
    try {
      await payload.commitOffsetsIfNecessary({ topics: [{ topic, partitions: [{ partition, offset: String(last + 1) }] }] });
    } catch (err) {
      if (isRebalance(err)) {
        throw err;
      }
      this.deps.logger.warn(`commit of ${topic}:${partition}@${last + 1} failed, the rows are stored: ${(err as Error).message}`);
    }
  }

  /**
   * The insert of a partition batch, retried with capped backoff while storage fails: nothing is committed, fetching
   * stops (the next batches of its partition wait for it, once the shared insert has no room), and every retry sends
   * the same rows with the same token, so a partly applied attempt is deduplicated. Rows the store refuses for their
   * data never reach this loop (IngestWriter isolates them). Right before each statement is sent, the membership of
   * the generation that fetched the batch is confirmed (confirmMembership). Batches that share an insert are retried
   * as one. A stop lets the first attempt go (a batch waiting for its slot is still sent), not the retries.
   */
  private async insertWithRetry({ kind, rows, rejected, token, generation }: BatchInsert): Promise<void> {
    const beforeSend = () => this.confirmMembership(generation);
    let sent = false;
    const attempt = () => ((sent = true), this.insertSlots(() => this.deps.store.store(kind, rows, rejected, token, beforeSend)));
    await this.withRetry(attempt, 'inserting', () => !sent);
  }

  /**
   * `attempt` retried with capped backoff until storage answers, unless the batch is abandoned meanwhile. Logged once
   * per outage, not once per attempt of every partition: the first failure, then the recovery with a count.
   */
  private async withRetry<T>(attempt: () => Promise<T>, what: string, beforeFirst = () => false): Promise<T> {
    const { logger } = this.deps;
    const result = await retryUntilDone(attempt, {
      abandoned: () => (this.stopping && !beforeFirst()) || this.abandoning,
      onFailure: (err, n, delay) => {
        const message = `${what}: ${(err as Error).message}`;
        if (this.failedAttempts++ === 0) {
          logger.warn(`storage failed, retried with backoff until it answers again (counted meanwhile): ${message}`);
        } else {
          logger.debug(`storage failed (attempt ${n}, retry in ${Math.round(delay)} ms): ${message}`);
        }
      },
    });
    if (this.failedAttempts > 0) {
      logger.log(`storage answers again after ${this.failedAttempts} failed attempts; fetching resumes`);
      this.failedAttempts = 0;
    }
    return result;
  }

  /**
   * Right before an insert is sent: this process is still a member of `generation` of the group (confirmMembership),
   * or the insert is abandoned unsent, and so is every further attempt of the batches in flight.
   */
  private async confirmMembership(generation: number | null): Promise<void> {
    try {
      await confirmMembership(this.deps.group(), generation);
    } catch (err) {
      this.abandoning = true;
      this.deps.logger.log(`membership not confirmed before an insert (${(err as Error).message}); abandoning the batch unsent`);
      throw new BatchAbandonedError();
    }
  }
}
