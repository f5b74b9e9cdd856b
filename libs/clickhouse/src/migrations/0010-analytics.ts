import type { Migration } from './migration';
import { rollupBackfill, selectKeys, type RollupKeys } from './rollup-backfill';

/** The first 16 bytes of SHA-256 over customer, instance and phrase joined by NUL: the term id of the API, in binary. */
export const TERM_ID_SQL = "substring(SHA256(concat(customer, '\\0', instance, '\\0', phrase)), 1, 16)";

const TOTALS_KEYS: RollupKeys = [
  ['customer', 'customer'],
  ['instance', 'instance'],
  ['hour', 'toStartOfHour(ts)'],
  ['zero_hits', 'hits = 0'],
  ['bot', 'bot'],
  ['language', 'language'],
];

const SPELLINGS_KEYS: RollupKeys = [
  ['customer', 'customer'],
  ['instance', 'instance'],
  ['term_id', TERM_ID_SQL],
  ['phrase', 'phrase'],
  ['hour', 'toStartOfHour(ts)'],
  ['zero_hits', 'hits = 0'],
  ['bot', 'bot'],
  ['language', 'language'],
  ['raw_phrase', 'raw_phrase'],
];

const LAST_TS = [['last_ts', 'ts']] as const;

/** The rollups of this migration and their views, for later migrations that change the views. */
export const ANALYTICS_ROLLUPS = [
  { table: 'search_totals_hourly', view: 'search_totals_hourly_mv', keys: TOTALS_KEYS },
  { table: 'search_term_spellings_hourly', view: 'search_term_spellings_hourly_mv', keys: SPELLINGS_KEYS },
] as const;

function view(name: string, target: string, source: string, keys: RollupKeys): string {
  return `CREATE MATERIALIZED VIEW IF NOT EXISTS ${name} TO ${target} AS
    SELECT ${selectKeys(keys)}, count() AS searches, max(ts) AS last_ts FROM ${source}
    GROUP BY ${keys.map(([column]) => column).join(', ')}`;
}

/**
 * The rollups of the analytics endpoints (docs/architecture.md), both hourly so that a day in any whole-hour time
 * zone is a sum of whole hours, and both with the newest event's time (X-Data-Updated-At):
 * - search_totals_hourly: searches per hour without the phrase, for GET /search-stats's series and totals and the
 *   newest event of a window; a few rows per hour.
 * - search_term_spellings_hourly: per term id (binary, the API's id), hour and original spelling, ordered by the
 *   id, so one term's detail (its counts, series and spellings) reads only that term's rows, and an id maps back
 *   to its phrase.
 */
export const analyticsMigration: Migration = {
  id: '0010-analytics',
  statements: ({ table, retentionDays }) => [
    `CREATE TABLE IF NOT EXISTS ${table('search_totals_hourly')} (
      customer LowCardinality(String),
      instance LowCardinality(String),
      hour DateTime('UTC'),
      zero_hits Bool,
      bot Bool,
      language LowCardinality(String),
      searches SimpleAggregateFunction(sum, UInt64),
      last_ts SimpleAggregateFunction(max, DateTime64(3, 'UTC'))
    ) ENGINE = AggregatingMergeTree
    PARTITION BY toYYYYMM(hour)
    ORDER BY (customer, instance, hour, zero_hits, bot, language)
    TTL hour + toIntervalDay(${retentionDays})
    SETTINGS non_replicated_deduplication_window = 10000`,
    view(table('search_totals_hourly_mv'), table('search_totals_hourly'), table('search_events'), TOTALS_KEYS),
    rollupBackfill(table('search_totals_hourly'), table('search_events'), TOTALS_KEYS, LAST_TS),
    `CREATE TABLE IF NOT EXISTS ${table('search_term_spellings_hourly')} (
      customer LowCardinality(String),
      instance LowCardinality(String),
      term_id FixedString(16),
      phrase String,
      hour DateTime('UTC'),
      zero_hits Bool,
      bot Bool,
      language LowCardinality(String),
      raw_phrase String,
      searches SimpleAggregateFunction(sum, UInt64),
      last_ts SimpleAggregateFunction(max, DateTime64(3, 'UTC'))
    ) ENGINE = AggregatingMergeTree
    PARTITION BY toYYYYMM(hour)
    ORDER BY (customer, instance, term_id, phrase, hour, zero_hits, bot, language, raw_phrase)
    TTL hour + toIntervalDay(${retentionDays})
    SETTINGS non_replicated_deduplication_window = 10000`,
    view(table('search_term_spellings_hourly_mv'), table('search_term_spellings_hourly'), table('search_events'), SPELLINGS_KEYS),
    rollupBackfill(table('search_term_spellings_hourly'), table('search_events'), SPELLINGS_KEYS, LAST_TS),
  ],
};
