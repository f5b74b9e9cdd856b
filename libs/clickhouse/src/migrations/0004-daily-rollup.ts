import type { Migration } from './migration';
import { rollupBackfill, searchTermKeys } from './rollup-backfill';

/**
 * A daily rollup beside the hourly one: GET /search-terms reads whole days here and only the hours at the
 * window's edges from the hourly table (an hourly rollup barely compresses a long tail of phrases over 30 days).
 * The backfill covers the events the view did not see (stored before it existed); the view covers everything after. The first,
 * partial day of a window is always read from the hourly table, so the daily TTL can equal the retention.
 */
export const dailyRollupMigration: Migration = {
  id: '0004-daily-rollup',
  statements: ({ table, retentionDays }) => [
    `CREATE TABLE IF NOT EXISTS ${table('search_terms_daily')} (
      customer LowCardinality(String),
      instance LowCardinality(String),
      zero_hits Bool,
      bot Bool,
      day Date,
      language LowCardinality(String),
      phrase String,
      searches UInt64
    ) ENGINE = SummingMergeTree(searches)
    PARTITION BY toYYYYMM(day)
    ORDER BY (customer, instance, zero_hits, bot, day, language, phrase)
    TTL day + toIntervalDay(${retentionDays})
    SETTINGS non_replicated_deduplication_window = 10000`,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${table('search_terms_daily_mv')} TO ${table('search_terms_daily')} AS
      SELECT customer, instance, hits = 0 AS zero_hits, bot, toDate(ts) AS day, language, phrase, count() AS searches
      FROM ${table('search_events')}
      GROUP BY customer, instance, zero_hits, bot, day, language, phrase`,
    // Counts exactly what the view did not (rollup-backfill.ts); the migration lock keeps it to one process.
    rollupBackfill(table('search_terms_daily'), table('search_events'), searchTermKeys({ column: 'day', expression: 'toDate(ts)' })),
  ],
};
