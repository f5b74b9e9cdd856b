/**
 * Stand-ins for what the ingest consumer talks to, for its unit specs: kafkajs' batches as eachBatch receives them
 * (FakeKafkaRun), the store and what ClickHouse then holds (FakeStore), and kafkajs' group (fakeGroup).
 */
import type { EachBatchPayload, KafkaMessage } from 'kafkajs';
import type { RejectedEventRow } from '@app/contracts';
import type { BeforeSend, IngestRow, IngestStore, Refused } from '@app/intake';
import type { OffsetsRepository } from '../../apps/ingest/src/offsets.repository';
import type { KafkaGroup } from '../../apps/ingest/src/rejoin-barrier';

/** A promise settled from outside. */
export function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (err: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Resolves once `check` holds (polled every 10 ms), or fails after `ms`. */
export async function until(check: () => boolean | Promise<boolean>, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) {
      throw new Error(`not reached within ${ms} ms`);
    }
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A search event message as a producer writes it, at `offset`. */
export function eventMessage(offset: number, event: Record<string, unknown> = {}): KafkaMessage {
  const value = { customer: 'acme', instance: 'shop', phrase: `phrase ${offset}`, language: 'en', hits: 1, ...event };
  return {
    key: null,
    value: Buffer.from(JSON.stringify(value)),
    timestamp: String(1_700_000_000_000 + offset),
    attributes: 0,
    offset: String(offset),
    headers: {},
  };
}

/** kafkajs' group as the rejoin barrier hands it over; its coordinator answers heartbeats of its generation only. */
export function fakeGroup(generationId = 1): KafkaGroup & { heartbeats: number } {
  const group = {
    groupId: 'g',
    memberId: 'member-1',
    generationId: generationId as number | null,
    heartbeats: 0,
    coordinator: {
      heartbeat: ({ groupGenerationId }: { groupGenerationId: number }) => {
        group.heartbeats++;
        if (groupGenerationId === group.generationId) {
          return Promise.resolve({});
        }
        return Promise.reject(Object.assign(new Error('The generation is not current'), { type: 'ILLEGAL_GENERATION' }));
      },
    },
  };
  return group;
}

/**
 * What kafkajs sees of one consumer's batches: offsets resolved and committed, in the order they were (`log`), and
 * which partitions it still owns (revoke: its batches turn stale, as after a rebalance that moved it).
 */
export class FakeKafkaRun {
  readonly log: string[] = [];
  running = true;
  private readonly revoked = new Set<string>();

  revoke(topic: string, partition: number): void {
    this.revoked.add(`${topic}:${partition}`);
  }

  commits(): string[] {
    return this.log.filter((entry) => entry.startsWith('commit '));
  }

  payload(topic: string, partition: number, messages: KafkaMessage[]): EachBatchPayload {
    const last = messages.at(-1)?.offset ?? '-1';
    const batch = {
      topic,
      partition,
      highWatermark: String(Number(last) + 1),
      messages,
      isEmpty: () => messages.length === 0,
      firstOffset: () => messages[0]?.offset ?? null,
      lastOffset: () => last,
      offsetLag: () => '0',
      offsetLagLow: () => '0',
    };
    return {
      batch,
      resolveOffset: (offset: string) => void this.log.push(`resolve ${topic}:${partition}@${offset}`),
      heartbeat: () => Promise.resolve(),
      pause: () => () => undefined,
      commitOffsetsIfNecessary: (offsets?: {
        topics: Array<{ topic: string; partitions: Array<{ partition: number; offset: string }> }>;
      }) => {
        for (const t of offsets?.topics ?? []) {
          for (const p of t.partitions) {
            this.log.push(`commit ${t.topic}:${p.partition}@${p.offset}`);
          }
        }
        return Promise.resolve();
      },
      uncommittedOffsets: () => ({ topics: [] }),
      isRunning: () => this.running,
      isStale: () => this.revoked.has(`${topic}:${partition}`),
    };
  }
}

interface StoredRow {
  topic: string;
  partition: number;
  offset: number;
  hash: string;
  customer: string;
  instance: string;
  eventId?: string;
}

/**
 * The store (IngestStore.store) and what ClickHouse then holds, read back as OffsetsRepository reads it (`offsets`).
 * An insert confirms the membership (beforeSend) right before it is sent, then lands unless storage is down; `hold`
 * keeps the next insert sent but not landed until released.
 */
export class FakeStore implements Pick<IngestStore, 'store'> {
  /** Inserts sent (attempts past the membership check), and the ones that landed, as topic:partition:first-last. */
  readonly sent: string[] = [];
  readonly landed: string[] = [];
  /** The deduplication token of every insert sent. */
  readonly tokens: Array<string | undefined> = [];
  /** The next insert sent stores this many of its rows, then fails (a split write cut short by a failure). */
  failAfter?: number;
  /** While set, every insert sent fails as a store that is down would. */
  down = false;
  /** Reads of what is stored (offsets()), and while set, every one fails as a store that is down would. */
  reads = 0;
  readsDown = false;
  private readonly rows: StoredRow[] = [];
  private readonly gates: Array<Promise<void>> = [];

  /** The next insert sent waits until the answer's `release` is called. */
  hold(): { release: () => void } {
    const gate = deferred();
    this.gates.push(gate.promise);
    return { release: () => gate.resolve() };
  }

  async store<Row extends IngestRow>(
    _kind: unknown,
    rows: readonly Row[],
    rejected: readonly RejectedEventRow[],
    token?: string,
    beforeSend?: BeforeSend,
  ): Promise<Refused<Row>> {
    await beforeSend?.();
    this.tokens.push(token);
    const all = [...rows, ...rejected];
    const offsets = all.map((r) => r.offset);
    const label = all.length === 0 ? 'nothing' : `${all[0].topic}:${all[0].partition}:${Math.min(...offsets)}-${Math.max(...offsets)}`;
    this.sent.push(label);
    const gate = this.gates.shift();
    if (gate) {
      await gate;
    }
    if (this.down) {
      throw new Error('storage down');
    }
    const landing = this.failAfter === undefined ? all : all.slice(0, this.failAfter);
    for (const r of landing) {
      // As OffsetsRepository.recentEventIds reads them: interactions' ids namespaced.
      const { event_id, interaction_id } = r as { event_id?: string; interaction_id?: string };
      const eventId = event_id ?? (interaction_id === undefined ? undefined : `i:${interaction_id}`);
      const { topic, partition, offset, customer, instance } = r;
      this.rows.push({ topic, partition, offset, customer, instance, hash: r.message_hash ?? '0', eventId });
    }
    if (landing !== all) {
      this.failAfter = undefined;
      throw new Error('storage failed part-way');
    }
    this.landed.push(label);
    return new Map();
  }

  /** The offsets stored of a partition, once per row: an offset stored twice shows twice. */
  storedOffsets(topic: string, partition: number): number[] {
    return this.of(topic, partition)
      .map((r) => r.offset)
      .sort((a, b) => a - b);
  }

  /** OffsetsRepository over what landed: each read counted in `reads`, and failing while `readsDown` is set. */
  offsets(): OffsetsRepository {
    const read = <T>(answer: () => T): Promise<T> => {
      this.reads++;
      return this.readsDown ? Promise.reject(new Error('storage down')) : Promise.resolve(answer());
    };
    const repository: Pick<OffsetsRepository, 'lastStored' | 'stored' | 'recentEventIds' | 'lastDocumentVersion'> = {
      lastStored: (topic, partition) => read(() => Math.max(-1, ...this.storedOffsets(topic, partition))),
      stored: (_table, topic, partition, from, to) =>
        read(() => this.of(topic, partition, from, to).map(({ offset, hash }) => ({ offset, hash }))),
      recentEventIds: (topic, partition, before, count) =>
        read(() =>
          this.of(topic, partition, before - count, before - 1)
            .filter((r) => r.eventId !== undefined)
            .map((r) => ({ customer: r.customer, instance: r.instance, event_id: r.eventId! })),
        ),
      lastDocumentVersion: () => read(() => 0n),
    };
    return repository as OffsetsRepository;
  }

  private of(topic: string, partition: number, from = -Infinity, to = Infinity): StoredRow[] {
    return this.rows.filter((r) => r.topic === topic && r.partition === partition && r.offset >= from && r.offset <= to);
  }
}
