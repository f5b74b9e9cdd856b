import type { Migration } from './migration';
import { rollupBackfill, searchTermKeys } from './rollup-backfill';

/**
 * Raw search events, the hourly rollup fed by a materialised view, rejected events, and the highest Kafka
 * offset stored per partition. Tables that take idempotent inserts keep a deduplication window: a batch
 * retried with the same insert_deduplication_token is dropped, in the rollup too (the insert passes
 * deduplicate_blocks_in_dependent_materialized_views = 1).
 */
export const searchEventsMigration: Migration = {
  id: '0002-search-events',
  statements: ({ table, retentionDays }) => [
    `CREATE TABLE IF NOT EXISTS ${table('search_events')} (
      event_id UUID,
      customer LowCardinality(String),
      instance LowCardinality(String),
      ts DateTime64(3, 'UTC'),
      phrase String,
      raw_phrase String,
      language LowCardinality(String),
      hits UInt32,
      bot Bool,
      session_hash String,
      source LowCardinality(String),
      topic LowCardinality(String),
      partition Int32,
      offset Int64,
      received_at DateTime64(3, 'UTC'),
      INDEX offset_minmax offset TYPE minmax GRANULARITY 1
    ) ENGINE = MergeTree
    PARTITION BY toYYYYMM(ts)
    ORDER BY (customer, instance, ts)
    TTL toDateTime(ts) + toIntervalDay(${retentionDays})
    SETTINGS non_replicated_deduplication_window = 10000`,
    `CREATE TABLE IF NOT EXISTS ${table('search_terms_hourly')} (
      customer LowCardinality(String),
      instance LowCardinality(String),
      zero_hits Bool,
      bot Bool,
      hour DateTime('UTC'),
      language LowCardinality(String),
      phrase String,
      searches UInt64
    ) ENGINE = SummingMergeTree(searches)
    PARTITION BY toYYYYMM(hour)
    ORDER BY (customer, instance, zero_hits, bot, hour, language, phrase)
    TTL hour + toIntervalDay(${retentionDays})
    SETTINGS non_replicated_deduplication_window = 10000`,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${table('search_terms_hourly_mv')} TO ${table('search_terms_hourly')} AS
      SELECT customer, instance, hits = 0 AS zero_hits, bot, toStartOfHour(ts) AS hour, language, phrase, count() AS searches
      FROM ${table('search_events')}
      GROUP BY customer, instance, zero_hits, bot, hour, language, phrase`,
    // Events stored between the creation of search_events and of the view (processes already ingesting).
    rollupBackfill(
      table('search_terms_hourly'),
      table('search_events'),
      searchTermKeys({ column: 'hour', expression: 'toStartOfHour(ts)' }),
    ),
    `CREATE TABLE IF NOT EXISTS ${table('rejected_events')} (
      customer LowCardinality(String),
      instance LowCardinality(String),
      kind LowCardinality(String),
      source LowCardinality(String),
      topic LowCardinality(String),
      partition Int32,
      offset Int64,
      item_index Int32,
      raw String,
      reason String,
      received_at DateTime64(3, 'UTC'),
      INDEX offset_minmax offset TYPE minmax GRANULARITY 1
    ) ENGINE = MergeTree
    PARTITION BY toYYYYMM(received_at)
    ORDER BY (customer, instance, received_at)
    TTL toDateTime(received_at) + toIntervalDay(${retentionDays})
    SETTINGS non_replicated_deduplication_window = 10000`,
    // The highest offset stored per topic partition, written in the same insert as the rows themselves.
    `CREATE TABLE IF NOT EXISTS ${table('ingest_offsets')} (
      topic LowCardinality(String),
      partition Int32,
      last_offset Int64
    ) ENGINE = ReplacingMergeTree(last_offset) ORDER BY (topic, partition)
    SETTINGS non_replicated_deduplication_window = 10000`,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${table('ingest_offsets_events_mv')} TO ${table('ingest_offsets')} AS
      SELECT topic, partition, max(offset) AS last_offset FROM ${table('search_events')}
      WHERE source = 'kafka' GROUP BY topic, partition`,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${table('ingest_offsets_rejected_mv')} TO ${table('ingest_offsets')} AS
      SELECT topic, partition, max(offset) AS last_offset FROM ${table('rejected_events')}
      WHERE source = 'kafka' GROUP BY topic, partition`,
  ],
};
