import { Injectable } from '@nestjs/common';
import { ClickHouseService } from '@app/clickhouse';
import type { IngestTarget } from '@app/intake';
import type { StoredEventId } from './recent-event-ids';

/** The table of a topic's kind (the events topic's rows also go to `interactions`, which the ledger reads with it). */
export type OffsetTable = IngestTarget['table'];

/** Where the offsets of a kind's rows are kept: the events topic stores search events, clicks and conversions. */
const OFFSET_TABLES: Record<OffsetTable, readonly string[]> = {
  search_events: ['search_events', 'interactions'],
  interactions: ['interactions'],
  documents: ['document_offsets'],
};

/** The tables whose rows keep their Kafka offsets, in the insert that stores them (`ingest_offsets` is their view). */
const OFFSET_SOURCES = ['search_events', 'interactions', 'rejected_events', 'documents'] as const;

/** What ClickHouse holds of one topic partition: the source of truth for what was stored (docs/architecture.md, "Exactly once"). */
@Injectable()
export class OffsetsRepository {
  constructor(private readonly ch: ClickHouseService) {}

  /**
   * The highest offset of this topic partition stored in ClickHouse (rows or rejected), or -1. `ingest_offsets` is
   * filled by views, so an insert cut by a kill between its table and its views can leave it behind the rows
   * (docs/architecture.md, "A kill at any moment"): the tables themselves are read above its offset, which their
   * offset indexes (minmax) narrow to the granules holding higher offsets.
   */
  async lastStored(topic: string, partition: number): Promise<number> {
    const where = `topic = {topic:String} AND partition = {partition:Int32}`;
    const recorded = `(SELECT ifNull(maxOrNull(last_offset), 0) FROM ${this.ch.table('ingest_offsets')} WHERE ${where})`;
    const rows = await this.ch.query<{ last: string | null }>(
      `SELECT maxOrNull(last) AS last FROM (
         SELECT maxOrNull(last_offset) AS last FROM ${this.ch.table('ingest_offsets')} WHERE ${where}
         ${OFFSET_SOURCES.map(
           (t) => `UNION ALL SELECT maxOrNull(offset) AS last FROM ${this.ch.table(t)}
         WHERE source = 'kafka' AND ${where} AND offset >= ${recorded}`,
         ).join('\n         ')})`,
      { topic, partition },
    );
    const last = rows[0]?.last;
    return last === null || last === undefined ? -1 : Number(last);
  }

  /**
   * Offsets in [from, to] stored in `table` or as rejected, each with the hash of the message stored there
   * ('0' for rows written before hashes were kept). Documents are looked up in document_offsets, which keeps the
   * offsets of versions that merges removed from the documents table; search events with the clicks and
   * conversions of the same topic (`interactions`).
   */
  async stored(
    table: OffsetTable,
    topic: string,
    partition: number,
    from: number,
    to: number,
  ): Promise<Array<{ offset: number; hash: string }>> {
    const where = `source = 'kafka' AND topic = {topic:String} AND partition = {partition:Int32}
      AND offset BETWEEN {from:Int64} AND {to:Int64}`;
    const rows = await this.ch.query<{ offset: string; hash: string }>(
      [...OFFSET_TABLES[table], 'rejected_events']
        .map((t) => `SELECT offset, toString(message_hash) AS hash FROM ${this.ch.table(t)} WHERE ${where}`)
        .join('\n       UNION ALL '),
      { topic, partition, from, to },
    );
    return rows.map((r) => ({ offset: Number(r.offset), hash: r.hash }));
  }

  /**
   * Event ids stored from this partition at the `count` offsets before `before`: search events' ids, and those of
   * clicks and conversions prefixed `i:` (as IntakeKinds' eventId gives them), in offset order.
   */
  async recentEventIds(topic: string, partition: number, before: number, count: number): Promise<StoredEventId[]> {
    const where = `source = 'kafka' AND topic = {topic:String} AND partition = {partition:Int32}
         AND offset >= {from:Int64} AND offset < {before:Int64}`;
    return this.ch.query<StoredEventId>(
      `SELECT customer, instance, event_id FROM (
         SELECT customer, instance, toString(event_id) AS event_id, offset FROM ${this.ch.table('search_events')} WHERE ${where}
         UNION ALL
         SELECT customer, instance, concat('i:', toString(interaction_id)) AS event_id, offset
         FROM ${this.ch.table('interactions')} WHERE ${where})
       ORDER BY offset`,
      { topic, partition, from: Math.max(0, before - count), before },
    );
  }

  /** The highest document version stored from this partition ('0' when none). */
  async lastDocumentVersion(topic: string, partition: number): Promise<bigint> {
    const [row] = await this.ch.query<{ version: string }>(
      `SELECT toString(max(version)) AS version FROM ${this.ch.table('documents')}
       WHERE source = 'kafka' AND topic = {topic:String} AND partition = {partition:Int32}`,
      { topic, partition },
    );
    return BigInt(row?.version ?? '0');
  }
}
