import type { Migration } from './migration';
import { searchTermKeys, selectKeys, type RollupKeys } from './rollup-backfill';
import { ANALYTICS_ROLLUPS } from './0010-analytics';
import { PHRASE_ROLLUPS } from './0011-phrase-rollups';

/** A rollup fed by a view over search_events: the view's name, its keys and whether it keeps the newest time. */
export interface SignedRollup {
  table: string;
  view: string;
  keys: RollupKeys;
  /** AggregatingMergeTree rollups keep `searches` as SimpleAggregateFunction(sum, ...) and the newest event's time. */
  aggregating: boolean;
}

/**
 * A rollup's rows computed from search_events (`where` restricts them), per key: the count (`raw_searches`), and the
 * newest time (`raw_last_ts`) where the rollup keeps it. `table` names the tables (the migrations' and
 * ClickHouseService's table()).
 */
export function rawRollupRows(rollup: SignedRollup, table: (name: string) => string, where: string): string {
  const columns = rollup.keys.map(([column]) => column).join(', ');
  return `SELECT ${selectKeys(rollup.keys)}, sum(sign) AS raw_searches${rollup.aggregating ? ', max(ts) AS raw_last_ts' : ''}
    FROM ${table('search_events')} WHERE ${where} GROUP BY ${columns}`;
}

export const SIGNED_ROLLUPS: readonly SignedRollup[] = [
  {
    table: 'search_terms_hourly',
    view: 'search_terms_hourly_mv',
    keys: searchTermKeys({ column: 'hour', expression: 'toStartOfHour(ts)' }),
    aggregating: false,
  },
  {
    table: 'search_terms_daily',
    view: 'search_terms_daily_mv',
    keys: searchTermKeys({ column: 'day', expression: 'toDate(ts)' }),
    aggregating: false,
  },
  ...ANALYTICS_ROLLUPS.map((r) => ({ ...r, aggregating: true })),
  ...PHRASE_ROLLUPS.map((r) => ({ ...r, aggregating: false })),
];

/**
 * Signed search events (issue 24): a row of search_events counts `sign` times, 1 for every stored event. A Kafka
 * offset found stored more than once (a paused ingest process that wrote what the partition's next owner wrote
 * too) is made harmless by one compensating row, a copy of the event with sign = 1 - copies (apps/ingest,
 * DuplicateOffsets). Its views count sum(sign), so the rollups take the compensation in the same insert, and every
 * count over the raw table is sum(sign) (docs/analysts.md).
 *
 * ingest_blocks keeps, per insert into search_events, the offset range of each Kafka partition in it: the
 * duplicate check looks for overlapping ranges there, a few rows per insert, instead of grouping the raw events.
 *
 * ALTER TABLE ... MODIFY QUERY keeps each view in place (no insert misses a view while it changes); ClickHouse
 * supports it for views with a TO table without any setting from 24.1 on. Modifying a column to the type it has is
 * a no-op, so the statements can run twice.
 */
export const signedEventsMigration: Migration = {
  id: '0012-signed-events',
  statements: ({ table }) => [
    `ALTER TABLE ${table('search_events')} ADD COLUMN IF NOT EXISTS sign Int8 DEFAULT 1`,
    ...SIGNED_ROLLUPS.flatMap((r) => [
      `ALTER TABLE ${table(r.table)} MODIFY COLUMN searches ${r.aggregating ? 'SimpleAggregateFunction(sum, Int64)' : 'Int64'}`,
      `ALTER TABLE ${table(r.view)} MODIFY QUERY
        SELECT ${selectKeys(r.keys)}, sum(sign) AS searches${r.aggregating ? ', max(ts) AS last_ts' : ''} FROM ${table('search_events')}
        GROUP BY ${r.keys.map(([column]) => column).join(', ')}`,
    ]),
    `CREATE TABLE IF NOT EXISTS ${table('ingest_blocks')} (
      topic LowCardinality(String),
      partition Int32,
      first_offset Int64,
      last_offset Int64,
      rows UInt64,
      inserted_at DateTime64(3, 'UTC')
    ) ENGINE = MergeTree
    ORDER BY (topic, partition, inserted_at)
    TTL toDateTime(inserted_at) + INTERVAL 8 DAY
    SETTINGS non_replicated_deduplication_window = 10000`,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${table('ingest_blocks_mv')} TO ${table('ingest_blocks')} AS
      SELECT topic, partition, min(offset) AS first_offset, max(offset) AS last_offset, count() AS rows, now64(3) AS inserted_at
      FROM ${table('search_events')}
      WHERE source = 'kafka' AND sign > 0
      GROUP BY topic, partition`,
  ],
};
