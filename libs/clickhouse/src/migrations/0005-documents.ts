import type { Migration } from './migration';

/**
 * Catalogue documents: the latest version of (customer, instance, id, language) is the document, a deleted
 * version removes it. Kafka rows keep topic, partition and offset (the ingest exactly-once rules).
 */
export const documentsMigration: Migration = {
  id: '0005-documents',
  statements: ({ table }) => [
    `CREATE TABLE IF NOT EXISTS ${table('documents')} (
      customer LowCardinality(String),
      instance LowCardinality(String),
      id String,
      language LowCardinality(String),
      version UInt64,
      deleted Bool,
      new Nullable(Float64),
      sold Nullable(Float64),
      basket Nullable(Float64),
      view Nullable(Float64),
      revenue Nullable(Float64),
      rating Nullable(Float64),
      profit_margin Nullable(Float64),
      source LowCardinality(String),
      topic LowCardinality(String),
      partition Int32,
      offset Int64,
      received_at DateTime64(3, 'UTC'),
      INDEX offset_minmax offset TYPE minmax GRANULARITY 1
    ) ENGINE = ReplacingMergeTree(version) ORDER BY (customer, instance, id, language)
    SETTINGS non_replicated_deduplication_window = 10000`,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${table('ingest_offsets_documents_mv')} TO ${table('ingest_offsets')} AS
      SELECT topic, partition, max(offset) AS last_offset FROM ${table('documents')} WHERE source = 'kafka' GROUP BY topic, partition`,
  ],
};
