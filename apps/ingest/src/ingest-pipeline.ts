import { createHash } from 'node:crypto';
import { isUtf8 } from 'node:buffer';
import type { KafkaMessage } from 'kafkajs';
import type { AppConfig } from '@app/config';
import { chDateTime, validateDocument, validateSearchEvent, type DocumentRow, type RejectedEventRow, type SearchEventRow } from '@app/contracts';
import type { DocumentsRepository, IngestRow, Refused, SearchEventValidator, SearchEventsRepository } from '@app/events';
import type { OffsetTable } from './offsets.repository';

export interface MessageContext {
  now: number;
  topic: string;
  partition: number;
  offset: number;
  /** Kafka message timestamp (ms since the epoch, as a string). */
  timestamp: string;
}

/** A row as the consumer writes it: with the hash of the message it came from (see PartitionLedger). */
export type KafkaRow = IngestRow & { message_hash: string };

/** What the ingest consumer does with the messages of one topic. */
export interface IngestPipeline {
  /** The table the rows go to; with rejected_events, where stored offsets are looked up. */
  table: OffsetTable;
  kind: RejectedEventRow['kind'];
  validate(value: unknown, ctx: MessageContext): { ok: true; row: IngestRow } | { ok: false; reason: string };
  /** Rows that replace each other by version (documents): gives the row its version in the partition's order. */
  order?(row: KafkaRow, versions: VersionSequence): void;
  /** Rows that are one event each: its id, stored once per partition within DEDUP_WINDOW messages. */
  eventId?(row: KafkaRow): string;
  write(rows: KafkaRow[], rejected: RejectedEventRow[], token: string): Promise<Refused<KafkaRow>>;
}

/** The two topics the ingest app consumes, by topic name. Rows are the validators' rows plus their message hash. */
export function ingestPipelines(config: AppConfig, validator: SearchEventValidator, events: SearchEventsRepository, documents: DocumentsRepository): Map<string, IngestPipeline> {
  return new Map<string, IngestPipeline>([
    [
      config.kafka.topicSearchEvents,
      {
        table: 'search_events',
        kind: 'search-event',
        validate: (value, m) => validateSearchEvent(value, validator.context({ source: 'kafka', ...m })),
        eventId: (row) => (row as unknown as SearchEventRow).event_id,
        write: (rows, rejected, token) => events.write(rows as never, rejected, token) as unknown as Promise<Refused<KafkaRow>>,
      },
    ],
    [
      config.kafka.topicDocuments,
      {
        table: 'documents',
        kind: 'document',
        // Same id -> same partition (keyed by id), so offsets order the writes of one document; the message time
        // in ns plus the offset makes a version comparable with the in-process transport's clock, and
        // VersionSequence keeps it growing with the offsets whatever the producers' clocks say.
        order: (row, versions) => {
          const document = row as unknown as DocumentRow;
          document.version = versions.next(BigInt(document.version)).toString();
        },
        validate: (value, m) =>
          validateDocument(value, { source: 'kafka', now: m.now, topic: m.topic, partition: m.partition, offset: m.offset, version: String(BigInt(m.timestamp) * 1_000_000n + BigInt(m.offset % 1_000_000)) }),
        write: (rows, rejected, token) => documents.write(rows as never, rejected, token) as unknown as Promise<Refused<KafkaRow>>,
      },
    ],
  ]);
}

/** Identifies a message within its partition across incarnations of the topic: its timestamp and value. */
export function messageHash(message: Pick<KafkaMessage, 'timestamp' | 'value'>): string {
  const digest = createHash('md5').update(message.timestamp).update('\n').update(message.value ?? Buffer.alloc(0)).digest();
  // UInt64 without 0, which marks rows stored before hashes were kept.
  return (digest.readBigUInt64BE(0) | 1n).toString();
}

/**
 * One message to a row or a rejected row (never a throw): the value must be UTF-8 JSON that the pipeline
 * validates. A rejected row keeps the raw value, its reason and its offset (so it counts as stored).
 */
export function decodeMessage(pipeline: IngestPipeline, message: KafkaMessage, ctx: MessageContext, hash: string): { row: KafkaRow } | { rejected: RejectedEventRow } {
  const value = message.value ?? Buffer.alloc(0);
  const raw = value.toString('utf8');
  let parsed: unknown;
  let reason: string | undefined;
  try {
    parsed = JSON.parse(raw); // invalid UTF-8 too (decoded with U+FFFD), only to name the customer of the rejection
  } catch {
    reason = 'not JSON';
  }
  if (!isUtf8(value)) reason = 'message is not valid UTF-8';
  if (reason === undefined) {
    const result = pipeline.validate(parsed, ctx);
    if (result.ok) return { row: Object.assign(result.row, { message_hash: hash }) };
    reason = result.reason;
  }
  const named = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as { customer?: unknown; instance?: unknown };
  const name = (v: unknown) => (typeof v === 'string' && v.isWellFormed() ? v : '');
  return {
    rejected: {
      customer: name(named.customer),
      instance: name(named.instance),
      kind: pipeline.kind,
      source: 'kafka',
      topic: ctx.topic,
      partition: ctx.partition,
      offset: ctx.offset,
      item_index: -1,
      raw,
      reason,
      received_at: chDateTime(ctx.now),
      message_hash: hash,
    },
  };
}

/**
 * Versions of one partition's documents in offset order: a message's own version (its timestamp in ns plus the
 * offset) unless that is not above the last one, then the last one + 1. A producer whose clock is behind cannot
 * make a later write of a document lose to an earlier one (the same id is always in the same partition).
 */
export class VersionSequence {
  constructor(private last: bigint) {}

  next(own: bigint): bigint {
    this.last = own > this.last ? own : this.last + 1n;
    return this.last;
  }
}
