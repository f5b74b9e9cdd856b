import type { Migration } from './migration';
import { phraseKeys } from './0011-phrase-rollups';
import { rollupBackfill, selectKeys } from './rollup-backfill';

/** The phrase rollups' keys (no language) with the week: Monday 00:00 UTC of the event's day. */
export const WEEKLY_KEYS = phraseKeys({ column: 'week', expression: 'toMonday(ts)' });

/**
 * A weekly rollup of phrases without the language (issue 31): a long window (since=30d) reads its whole weeks here,
 * its other whole days from search_phrases_daily and its edge hours from search_phrases_hourly. A long-tailed log
 * repeats most phrases from day to day, so a week has far fewer rows than its seven days (at 10M events a month, a
 * week's 323k daily rows are 135k weekly rows). Its view counts sum(sign) as every view over the signed events;
 * the backfill counts the events stored before it (rollup-backfill.ts). A row leaves by TTL when its week's last
 * day leaves the retention, not its first: a window that starts at the retention's start on a Monday reads that
 * week's row, which must not be gone (RETENTION_TTL keeps the `week + 7` when RETENTION_DAYS changes).
 */
export const weeklyPhrasesMigration: Migration = {
  id: '0021-weekly-phrases',
  statements: ({ table, retentionDays }) => [
    `CREATE TABLE IF NOT EXISTS ${table('search_phrases_weekly')} (
      customer LowCardinality(String),
      instance LowCardinality(String),
      zero_hits Bool,
      bot Bool,
      week Date,
      phrase String,
      searches Int64
    ) ENGINE = SummingMergeTree(searches)
    PARTITION BY toYYYYMM(week)
    ORDER BY (customer, instance, zero_hits, bot, week, phrase)
    TTL week + 7 + toIntervalDay(${retentionDays})
    SETTINGS non_replicated_deduplication_window = 10000`,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${table('search_phrases_weekly_mv')} TO ${table('search_phrases_weekly')} AS
      SELECT ${selectKeys(WEEKLY_KEYS)}, sum(sign) AS searches FROM ${table('search_events')}
      GROUP BY ${WEEKLY_KEYS.map(([column]) => column).join(', ')}`,
    rollupBackfill(table('search_phrases_weekly'), table('search_events'), WEEKLY_KEYS, [], 'sum(sign)'),
  ],
};
