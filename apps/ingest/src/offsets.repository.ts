import { Injectable } from '@nestjs/common';
import { ClickHouseService } from '@app/clickhouse';
import type { StoredEventId } from './recent-event-ids';

export type OffsetTable = 'search_events' | 'documents';

/** What ClickHouse holds of one topic partition: the source of truth for what was stored (docs/architecture.md, "Exactly once"). */
@Injectable()
export class OffsetsRepository {
  constructor(private readonly ch: ClickHouseService) {}

  /** The highest offset of this topic partition stored in ClickHouse (rows or rejected), or -1. */
  async lastStored(topic: string, partition: number): Promise<number> {
    const rows = await this.ch.query<{ last: string | null }>(
      `SELECT max(last_offset) AS last FROM ${this.ch.table('ingest_offsets')}
       WHERE topic = {topic:String} AND partition = {partition:Int32}`,
      { topic, partition },
    );
    const last = rows[0]?.last;
    return last === null || last === undefined ? -1 : Number(last);
  }

  /**
   * Offsets in [from, to] stored in `table` or as rejected, each with the hash of the message stored there
   * ('0' for rows written before hashes were kept). Documents are looked up in document_offsets, which keeps the
   * offsets of versions that merges removed from the documents table.
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
      `SELECT offset, toString(message_hash) AS hash FROM ${this.ch.table(table === 'documents' ? 'document_offsets' : table)}
       WHERE ${where}
       UNION ALL SELECT offset, toString(message_hash) AS hash FROM ${this.ch.table('rejected_events')} WHERE ${where}`,
      { topic, partition, from, to },
    );
    return rows.map((r) => ({ offset: Number(r.offset), hash: r.hash }));
  }

  /** Event ids stored from this partition at the `count` offsets before `before` (search events only). */
  async recentEventIds(topic: string, partition: number, before: number, count: number): Promise<StoredEventId[]> {
    return this.ch.query<StoredEventId>(
      `SELECT customer, instance, toString(event_id) AS event_id FROM ${this.ch.table('search_events')}
       WHERE source = 'kafka' AND topic = {topic:String} AND partition = {partition:Int32}
         AND offset >= {from:Int64} AND offset < {before:Int64}
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
