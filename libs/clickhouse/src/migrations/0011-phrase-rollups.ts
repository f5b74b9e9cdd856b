import type { Migration } from './migration';
import { rollupBackfill, searchTermKeys, selectKeys, type RollupKeys } from './rollup-backfill';

/** The keys of the phrase rollups: the search-term rollups' keys without the language (0021's weekly one too). */
export function phraseKeys(bucket: { column: string; expression: string }): RollupKeys {
  return searchTermKeys(bucket).filter(([column]) => column !== 'language');
}

const HOURLY = phraseKeys({ column: 'hour', expression: 'toStartOfHour(ts)' });
const DAILY = phraseKeys({ column: 'day', expression: 'toDate(ts)' });

/** The rollups of this migration and their views, for later migrations that change the views. */
export const PHRASE_ROLLUPS = [
  { table: 'search_phrases_hourly', view: 'search_phrases_hourly_mv', keys: HOURLY },
  { table: 'search_phrases_daily', view: 'search_phrases_daily_mv', keys: DAILY },
] as const;

function table(name: string, bucket: 'hour' | 'day', retentionDays: number): string {
  return `CREATE TABLE IF NOT EXISTS ${name} (
      customer LowCardinality(String),
      instance LowCardinality(String),
      zero_hits Bool,
      bot Bool,
      ${bucket === 'hour' ? "hour DateTime('UTC')" : 'day Date'},
      phrase String,
      searches UInt64
    ) ENGINE = SummingMergeTree(searches)
    PARTITION BY toYYYYMM(${bucket})
    ORDER BY (customer, instance, zero_hits, bot, ${bucket}, phrase)
    TTL ${bucket} + toIntervalDay(${retentionDays})
    SETTINGS non_replicated_deduplication_window = 10000`;
}

function view(name: string, target: string, source: string, keys: RollupKeys): string {
  return `CREATE MATERIALIZED VIEW IF NOT EXISTS ${name} TO ${target} AS
    SELECT ${selectKeys(keys)}, count() AS searches FROM ${source}
    GROUP BY ${keys.map(([column]) => column).join(', ')}`;
}

/**
 * Hourly and daily rollups of phrases without the language (issue 16): a request without a language filter (the
 * common one) reads these instead of search_terms_hourly/daily, whose rows a phrase has once per language. A day of
 * the benchmark's long-tailed log has 163k hourly rows per language and 97k without (the daily ones 73k and 46k).
 * The bot dimension stays: includeBotTraffic=false (the default) reads bot = 0 as a key range.
 */
export const phraseRollupsMigration: Migration = {
  id: '0011-phrase-rollups',
  statements: ({ table: t, retentionDays }) => [
    table(t('search_phrases_hourly'), 'hour', retentionDays),
    view(t('search_phrases_hourly_mv'), t('search_phrases_hourly'), t('search_events'), HOURLY),
    // Counts exactly what the view did not (rollup-backfill.ts); the migration lock keeps it to one process.
    rollupBackfill(t('search_phrases_hourly'), t('search_events'), HOURLY),
    table(t('search_phrases_daily'), 'day', retentionDays),
    view(t('search_phrases_daily_mv'), t('search_phrases_daily'), t('search_events'), DAILY),
    rollupBackfill(t('search_phrases_daily'), t('search_events'), DAILY),
  ],
};
