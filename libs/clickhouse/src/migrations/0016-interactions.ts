import type { Migration } from './migration';

/**
 * Clicks and conversions (issue 29; docs/architecture.md, "Clicks and conversions").
 *
 * - `search_events.id_sent`: the client sent the event's id, so a click can refer to it (a generated id is never
 *   shown to anyone). Rows stored before this column read `intake_token != ''`: true exactly for the rows of HTTP
 *   requests whose events all carried ids, false for everything else, a safe lower bound (an old row counts as
 *   untracked rather than tracked by mistake).
 * - `interactions`: every click, conversion and view, from `POST /events`, the Kafka topic and `POST /1/events`,
 *   with the same offset columns as `search_events` (the ingest app's ledger reads both). `search_id` is the nil
 *   UUID (NO_SEARCH_ID in libs/contracts) when the event names no search; `value` is a decimal (a sum over floats
 *   depends on its order); filter-only Insights events have `object_id` '' and their `filters`. A row counts for a
 *   search when its type is click or conversion and it has an object; identical rows (same type, search, object,
 *   position, subtype, value, currency, time and user token) count once, so no sign compensation is needed for a
 *   Kafka duplicate.
 * - `search_ids`: one row per id the clients sent, holding the lexicographically smallest copy (time, phrase,
 *   language, bot, hits) of the search: a search id stored twice is one search, the same copy whatever the order of
 *   arrival. `min` is idempotent, so the backfill may overlap inserts made meanwhile.
 * - `erased_user_tokens`: `DELETE /1/usertokens/{userToken}`; every engagement answer leaves out the interactions
 *   of these hashes at once, and a daily job deletes the rows.
 * - Views record what the intake's ledgers need: the highest Kafka offset (`ingest_offsets`) and the retry token of
 *   an HTTP request's interactions (`intake_requests`, as `<token>:interactions`).
 */
export const interactionsMigration: Migration = {
  id: '0016-interactions',
  statements: ({ table, retentionDays }) => [
    `ALTER TABLE ${table('search_events')} ADD COLUMN IF NOT EXISTS id_sent Bool DEFAULT intake_token != ''`,
    `CREATE TABLE IF NOT EXISTS ${table('interactions')} (
      interaction_id UUID,
      customer LowCardinality(String),
      instance LowCardinality(String),
      type LowCardinality(String),
      search_id UUID,
      object_id String,
      object_index UInt8,
      position UInt16,
      subtype LowCardinality(String),
      value Decimal64(6),
      currency LowCardinality(String),
      ts DateTime64(3, 'UTC'),
      user_token_hash String,
      session_hash String,
      origin LowCardinality(String),
      event_name String,
      index_name String,
      filters Array(String),
      source LowCardinality(String),
      topic LowCardinality(String),
      partition Int32,
      offset Int64,
      message_hash UInt64,
      received_at DateTime64(3, 'UTC'),
      intake_token String DEFAULT '',
      INDEX offset_minmax offset TYPE minmax GRANULARITY 1
    ) ENGINE = MergeTree
    PARTITION BY toYYYYMM(ts)
    ORDER BY (customer, instance, ts)
    TTL toDateTime(ts) + toIntervalDay(${retentionDays})
    SETTINGS non_replicated_deduplication_window = 10000`,
    `CREATE TABLE IF NOT EXISTS ${table('search_ids')} (
      customer LowCardinality(String),
      instance LowCardinality(String),
      search_id UUID,
      first SimpleAggregateFunction(min, Tuple(DateTime64(3, 'UTC'), String, String, Bool, UInt32))
    ) ENGINE = AggregatingMergeTree
    ORDER BY (customer, instance, search_id)
    TTL toDateTime(first.1) + toIntervalDay(${retentionDays})
    SETTINGS non_replicated_deduplication_window = 10000`,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${table('search_ids_mv')} TO ${table('search_ids')} AS
      SELECT customer, instance, event_id AS search_id, min((ts, phrase, language, bot, hits)) AS first
      FROM ${table('search_events')} WHERE id_sent AND sign > 0
      GROUP BY customer, instance, search_id`,
    `INSERT INTO ${table('search_ids')}
      SELECT customer, instance, event_id AS search_id, min((ts, phrase, language, bot, hits)) AS first
      FROM ${table('search_events')} WHERE id_sent AND sign > 0
      GROUP BY customer, instance, search_id`,
    `CREATE TABLE IF NOT EXISTS ${table('erased_user_tokens')} (
      customer LowCardinality(String),
      instance LowCardinality(String),
      user_token_hash String,
      at DateTime('UTC')
    ) ENGINE = ReplacingMergeTree
    ORDER BY (customer, instance, user_token_hash)
    TTL at + toIntervalDay(${retentionDays})`,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${table('ingest_offsets_interactions_mv')} TO ${table('ingest_offsets')} AS
      SELECT topic, partition, max(offset) AS last_offset FROM ${table('interactions')}
      WHERE source = 'kafka' GROUP BY topic, partition`,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${table('intake_requests_interactions_mv')} TO ${table('intake_requests')} AS
      SELECT customer, instance, concat(intake_token, ':interactions') AS token, toDateTime(received_at) AS received_at
      FROM ${table('interactions')}
      WHERE intake_token != ''`,
  ],
};
