import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import type { Consumer, EachBatchPayload } from 'kafkajs';
import { AppConfig } from '@app/config';
import { chDateTime, validateDocument, validateSearchEvent, type RejectedEventRow } from '@app/contracts';
import { DocumentsRepository, InsertBatcher, SearchEventValidator, SearchEventsRepository } from '@app/events';
import { KafkaService } from '@app/kafka';
import { MetricsService } from '@app/metrics';
import type { IngestPipeline } from './ingest-pipeline';
import { StoredOffsets } from './stored-offsets';

const MAX_BACKOFF_MS = 10_000;
/** Errors after which kafkajs must rejoin the group (what its runner checks). */
const REBALANCE_ERRORS = new Set(['REBALANCE_IN_PROGRESS', 'NOT_COORDINATOR_FOR_GROUP', 'ILLEGAL_GENERATION', 'UNKNOWN_MEMBER_ID']);

/** Test-only fault injection, read once at start-up: `crash-after-insert:<n>` kills the process after the n-th insert. */
const FAILPOINT = /^crash-after-insert:(\d+)$/.exec(process.env.INGEST_FAILPOINT ?? '');

/**
 * The ingest app's Kafka consumer, for search events and catalogue documents: per partition batch, validate,
 * insert with insert_deduplication_token = topic:partition:first-last, and only then commit. Invalid messages go
 * to rejected_events with their offset while the rest of the batch goes on. While ClickHouse fails: fetching
 * stops, the insert is retried with capped backoff, nothing is committed or dropped.
 */
@Injectable()
export class IngestConsumer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(IngestConsumer.name);
  private consumer?: Consumer;
  /** Per topic: its pipeline, and a batcher through which concurrent batches of all partitions share one insert
   * (the test broker hands out small batches, and ClickHouse prefers few large inserts). */
  private readonly topics = new Map<string, { pipeline: IngestPipeline; batcher: InsertBatcher<object> }>();
  private readonly stored = new Map<string, StoredOffsets>();
  private inserts = 0;
  private stopping = false;
  /** Bumped at every rebalance: a retrying insert of an earlier generation gives up (its partitions moved on). */
  private generation = 0;
  /** Partitions per topic assigned to this consumer at the last rebalance. */
  assigned: Record<string, number[]> = {};
  /** Messages behind per topic:partition at its last batch, and when a batch last completed. */
  private readonly lag = new Map<string, number>();
  private lastProgressAt = Date.now();

  constructor(
    private readonly config: AppConfig,
    private readonly kafka: KafkaService,
    validator: SearchEventValidator,
    private readonly events: SearchEventsRepository,
    documents: DocumentsRepository,
    private readonly metrics: MetricsService,
  ) {
    const pipelines: Record<string, IngestPipeline> = {
      [config.kafka.topicSearchEvents]: {
        table: 'search_events',
        kind: 'search-event',
        validate: (value, m) => validateSearchEvent(value, validator.context({ source: 'kafka', ...m })),
        write: (rows, rejected, token) => events.write(rows as never, rejected, token),
      },
      [config.kafka.topicDocuments]: {
        table: 'documents',
        kind: 'document',
        // Same id -> same partition (keyed by id), so offsets order the writes of one document; the message time
        // in ns plus the offset makes a version comparable with the in-process transport's clock.
        validate: (value, m) => validateDocument(value, { source: 'kafka', now: m.now, topic: m.topic, partition: m.partition, offset: m.offset, version: String(BigInt(m.timestamp) * 1_000_000n + BigInt(m.offset % 1_000_000)) }),
        write: (rows, rejected, token) => documents.write(rows as never, rejected, token),
      },
    };
    for (const [topic, pipeline] of Object.entries(pipelines)) {
      this.topics.set(topic, { pipeline, batcher: new InsertBatcher<object>((rows, rejected, token) => this.writeWithRetry(topic, pipeline, rows, rejected, token!), { lingerMs: 20 }) });
    }
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.kafka.enabled) await this.start();
  }

  /**
   * Liveness of the consume loop: stalled when no batch completed for `stallMs` while messages wait (the lag at
   * the partitions' last batches is not zero).
   */
  health(stallMs = 60_000): { running: boolean; stalled: boolean; lag: number; sinceProgressMs: number } {
    const lag = [...this.lag.values()].reduce((a, b) => a + b, 0);
    const sinceProgressMs = Date.now() - this.lastProgressAt;
    return { running: Boolean(this.consumer) && !this.stopping, stalled: lag > 0 && sinceProgressMs > stallMs, lag, sinceProgressMs };
  }

  /** SIGTERM: kafkajs lets the running batches finish (insert, commit), then leaves the group. */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    await this.consumer?.disconnect();
  }

  private async start(): Promise<void> {
    const sessionTimeout = this.config.kafka.sessionTimeoutMs;
    const consumer = this.kafka.kafka.consumer({
      groupId: this.config.kafka.groupId,
      sessionTimeout,
      heartbeatInterval: Math.min(3000, Math.floor(sessionTimeout / 3)),
      // Batches are formed by size or time at the fetch: up to 1 MB per partition and 8 MB per fetch, or whatever
      // arrived within 200 ms; concurrent batches then share one insert (20 ms linger). The byte caps bound memory.
      maxBytesPerPartition: 1024 * 1024,
      maxBytes: 8 * 1024 * 1024,
      minBytes: 64 * 1024,
      maxWaitTimeInMs: 200,
    });
    consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
      this.generation++;
      this.stored.clear();
      this.lag.clear();
      this.assigned = {};
      for (const topic of this.topics.keys()) {
        this.assigned[topic] = [...(payload.memberAssignment[topic] ?? [])].sort((a, b) => a - b);
        this.logger.log(`assigned partitions ${this.assigned[topic].join(',') || '(none)'} of ${topic}`);
      }
    });
    // kafkajs' offsetLag is what remains after the batch: when a batch starts, the batch itself waits too (so one
    // stuck on storage still shows); when it ends, only the remainder does.
    const recordLag = (topic: string, partition: number, waiting: number) => {
      this.lag.set(`${topic}:${partition}`, waiting);
      this.metrics.consumerLag.set({ topic, partition: String(partition) }, waiting);
    };
    consumer.on(consumer.events.START_BATCH_PROCESS, ({ payload }) => recordLag(payload.topic, payload.partition, Number(payload.offsetLag) + payload.batchSize));
    consumer.on(consumer.events.END_BATCH_PROCESS, ({ payload }) => {
      this.lastProgressAt = Date.now();
      recordLag(payload.topic, payload.partition, Number(payload.offsetLag));
    });
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

  private async handleBatch({ batch, resolveOffset, commitOffsetsIfNecessary, heartbeat, isRunning, isStale }: EachBatchPayload): Promise<void> {
    if (batch.isEmpty() || !isRunning() || isStale()) return;
    const { topic, partition, messages } = batch;
    const { pipeline, batcher } = this.topics.get(topic)!;
    const first = Number(messages[0].offset);
    const last = Number(messages[messages.length - 1].offset);
    const stored = await this.storedOffsets(pipeline, topic, partition, first);

    const now = Date.now();
    const rows: object[] = [];
    const rejected: RejectedEventRow[] = [];
    for (const message of messages) {
      const offset = Number(message.offset);
      if (stored.has(offset)) continue;
      const raw = message.value?.toString('utf8') ?? '';
      let parsed: unknown;
      let reason: string | undefined;
      try {
        parsed = JSON.parse(raw);
      } catch {
        reason = 'not JSON';
      }
      if (reason === undefined) {
        const result = pipeline.validate(parsed, { now, topic, partition, offset, timestamp: message.timestamp });
        if (result.ok) {
          rows.push(result.row);
          continue;
        }
        reason = result.reason;
      }
      const named = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as { customer?: unknown; instance?: unknown };
      rejected.push({
        customer: typeof named.customer === 'string' ? named.customer : '',
        instance: typeof named.instance === 'string' ? named.instance : '',
        kind: pipeline.kind,
        source: 'kafka',
        topic,
        partition,
        offset,
        item_index: -1,
        raw,
        reason,
        received_at: chDateTime(now),
      });
    }

    await this.withHeartbeats(batcher.add(rows, rejected, { key: `${topic}:${partition}:${first}-${last}` }), heartbeat);
    stored.inserted(last);
    if (FAILPOINT && ++this.inserts >= Number(FAILPOINT[1])) process.kill(process.pid, 'SIGKILL');
    // Offsets are committed only after the insert: a crash in between re-delivers, and the rows are found stored.
    // For the same reason a failed commit loses nothing. A rebalance error is rethrown so kafkajs rejoins the group.
    resolveOffset(messages[messages.length - 1].offset);
    try {
      await commitOffsetsIfNecessary({ topics: [{ topic, partitions: [{ partition, offset: String(last + 1) }] }] });
    } catch (err) {
      if (REBALANCE_ERRORS.has((err as { type?: string }).type ?? '')) throw err;
      this.logger.warn(`commit of ${topic}:${partition}@${last + 1} failed, the rows are stored: ${(err as Error).message}`);
    }
  }

  private async storedOffsets(pipeline: IngestPipeline, topic: string, partition: number, first: number): Promise<StoredOffsets> {
    const key = `${topic}:${partition}`;
    let stored = this.stored.get(key);
    if (!stored) {
      const lastStored = await this.events.lastStoredOffset(topic, partition);
      const window = lastStored >= first ? await this.events.storedOffsets(pipeline.table, topic, partition, first, lastStored) : new Set<number>();
      if (window.size > 0) this.logger.log(`${key}: ${window.size} offsets from ${first} to ${lastStored} already stored; skipping them`);
      stored = new StoredOffsets(lastStored, window);
      this.stored.set(key, stored);
    }
    return stored;
  }

  /** Keeps the group membership alive while a batch waits for its (possibly retried) insert. */
  private async withHeartbeats(insert: Promise<void>, heartbeat: () => Promise<void>): Promise<void> {
    let done = false;
    const settled = insert.finally(() => (done = true));
    while (!done) {
      await Promise.race([settled, new Promise((r) => setTimeout(r, 1000))]);
      if (!done) await heartbeat();
    }
    await settled;
  }

  /**
   * Inserts with the token of every offset range in it, retrying with capped backoff while storage fails:
   * fetching is paused, nothing is committed, and the retry sends the same rows with the same token, so a
   * partly applied attempt is deduplicated.
   */
  private async writeWithRetry(topic: string, pipeline: IngestPipeline, rows: object[], rejected: RejectedEventRow[], token: string): Promise<void> {
    const generation = this.generation;
    let paused = false;
    for (let attempt = 1; ; attempt++) {
      try {
        await pipeline.write(rows, rejected, token);
        if (paused) {
          this.consumer?.resume([{ topic }]);
          this.logger.log(`storage is back after ${attempt} attempts; fetching resumed`);
        }
        return;
      } catch (err) {
        // Stopping or rebalanced: nothing was committed; the partitions' next owner starts from the last commit.
        if (this.stopping || generation !== this.generation) throw err;
        if (!paused) {
          this.consumer?.pause([{ topic }]);
          paused = true;
        }
        const delay = Math.min(MAX_BACKOFF_MS, 100 * 2 ** Math.min(attempt, 10)) * (0.5 + Math.random() / 2);
        this.logger.warn(`insert failed (attempt ${attempt}, retry in ${Math.round(delay)} ms): ${(err as Error).message}`);
        await new Promise((r) => setTimeout(r, delay));
      }
    }
  }
}
