import type { Migration } from './migration';

/**
 * Every Kafka offset a document was stored from, with its message hash, in a table merges never shrink: the
 * documents table replaces older versions of a document in the background, and an offset whose row was merged
 * away must still count as stored, or a re-delivered older write would be stored again as the newest version.
 * Kept for the retention (longer than any Kafka retention that could re-deliver a message). The backfill adds what
 * is stored but not recorded yet, so running it again, or with documents arriving meanwhile, adds nothing twice
 * (a repeated offset would be harmless anyway: it only says "stored").
 */
export const documentOffsetsMigration: Migration = {
  id: '0009-document-offsets',
  statements: ({ table, retentionDays }) => [
    `CREATE TABLE IF NOT EXISTS ${table('document_offsets')} (
      source LowCardinality(String),
      topic LowCardinality(String),
      partition Int32,
      offset Int64,
      message_hash UInt64,
      received_at DateTime64(3, 'UTC')
    ) ENGINE = MergeTree ORDER BY (topic, partition, offset)
    TTL toDateTime(received_at) + toIntervalDay(${retentionDays})
    SETTINGS non_replicated_deduplication_window = 10000`,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${table('document_offsets_mv')} TO ${table('document_offsets')} AS
      SELECT source, topic, partition, offset, message_hash, received_at FROM ${table('documents')} WHERE source = 'kafka'`,
    `INSERT INTO ${table('document_offsets')}
      SELECT source, topic, partition, offset, message_hash, received_at FROM ${table('documents')}
      WHERE source = 'kafka' AND (topic, partition, offset) NOT IN (SELECT topic, partition, offset FROM ${table('document_offsets')})`,
  ],
};
