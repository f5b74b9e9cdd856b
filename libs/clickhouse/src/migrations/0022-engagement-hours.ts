import { randomUUID } from 'node:crypto';
import type { Migration } from './migration';

/** How long `engagement_changes` keeps a change: a refresh that finds its last pass older starts over (EngagementRefresh). */
export const ENGAGEMENT_CHANGES_KEPT_HOURS = 24;

/**
 * The copies of searches with an id, as search_ids keeps them: the smallest copy and the hours of all copies; with
 * `part`, only the ids of that eighth (the backfill's memory is an eighth of all ids': at 100M events, 60M of them);
 * with `condition`, only the rows it holds for (the storage check's missing ids).
 */
export const searchIdsSelect = (table: (name: string) => string, part?: number, condition?: string) =>
  `SELECT customer, instance, event_id AS search_id, min((ts, phrase, language, bot, hits)) AS first,
      groupUniqArray(toStartOfHour(ts)) AS hours
    FROM ${table('search_events')} WHERE id_sent AND sign > 0 ${part === undefined ? '' : `AND cityHash64(event_id) % 8 = ${part}`}${
      condition === undefined ? '' : ` AND ${condition}`
    }
    GROUP BY customer, instance, search_id`;

/**
 * The engagement figures of every hour, computed ahead of the requests (issue 31; docs/architecture.md, "Clicks and
 * conversions"):
 * - `engagement_hourly`: the figures of an hour's tracked searches per phrase, language and bot (`kind` phrase) and
 *   per language and bot (`kind` total), exactly as the computation from the raw tables gives them at the time
 *   `version` (the pass's start, in microseconds with a random part, so two passes never share one). A refresh
 *   writes an hour again under a newer version; a reader takes each hour's newest version recorded in
 *   `engagement_versions`, which a refresh writes after the hour's rows, so a version recorded there is complete.
 *   Versions are never merged into each other (a reader may still be reading the one it chose): the refresh deletes
 *   those older than a version recorded an hour ago (EngagementRefresh.deleteReplaced).
 * - `engagement_changes`: every id of a search copy or an interaction stored, and when: the hours a refresh must
 *   compute again are those of the ids stored since its last complete pass (`engagement_passes`), through the hours
 *   of their copies (`search_ids.hours`), plus those of erased shoppers' interactions.
 * - `search_ids.hours`: the hours of all copies of an id, not only of its smallest one: when an earlier copy arrives
 *   later, the hour that lost the search is found too. The view is made again with the column, and the backfill
 *   (min and the union of hours are idempotent) covers what was stored before or while it was replaced, an eighth of
 *   the ids per statement.
 */
export const engagementHoursMigration: Migration = {
  id: '0022-engagement-hours',
  statements: ({ table, retentionDays }) => [
    `CREATE TABLE IF NOT EXISTS ${table('engagement_hourly')} (
      customer LowCardinality(String),
      instance LowCardinality(String),
      kind Enum8('phrase' = 1, 'total' = 2),
      hour DateTime('UTC'),
      phrase String,
      language LowCardinality(String),
      bot Bool,
      version DateTime64(6, 'UTC'),
      tracked UInt64,
      clicked UInt64,
      clicks UInt64,
      pos_sum UInt64,
      converted UInt64,
      rev_cur Array(String),
      rev_val Array(Decimal128(6))
    ) ENGINE = MergeTree
    PARTITION BY toYYYYMM(hour)
    ORDER BY (customer, instance, kind, hour, version, phrase, language, bot)
    TTL hour + toIntervalDay(${retentionDays})`,
    `CREATE TABLE IF NOT EXISTS ${table('engagement_versions')} (
      customer LowCardinality(String),
      instance LowCardinality(String),
      hour DateTime('UTC'),
      version DateTime64(6, 'UTC'),
      recorded_at DateTime64(3, 'UTC') DEFAULT now64(3, 'UTC')
    ) ENGINE = MergeTree
    ORDER BY (customer, instance, hour, version)
    TTL hour + toIntervalDay(${retentionDays})`,
    `CREATE TABLE IF NOT EXISTS ${table('engagement_passes')} (
      at DateTime64(3, 'UTC')
    ) ENGINE = MergeTree
    ORDER BY at
    TTL toDateTime(at) + toIntervalHour(${ENGAGEMENT_CHANGES_KEPT_HOURS})`,
    `CREATE TABLE IF NOT EXISTS ${table('engagement_changes')} (
      customer LowCardinality(String),
      instance LowCardinality(String),
      search_id UUID,
      inserted_at DateTime64(3, 'UTC')
    ) ENGINE = MergeTree
    ORDER BY inserted_at
    TTL toDateTime(inserted_at) + toIntervalHour(${ENGAGEMENT_CHANGES_KEPT_HOURS})`,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${table('engagement_changes_searches_mv')} TO ${table('engagement_changes')} AS
      SELECT customer, instance, event_id AS search_id, now64(3, 'UTC') AS inserted_at FROM ${table('search_events')}
      WHERE id_sent AND sign > 0`,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${table('engagement_changes_interactions_mv')} TO ${table('engagement_changes')} AS
      SELECT customer, instance, search_id, now64(3, 'UTC') AS inserted_at FROM ${table('interactions')}
      WHERE type IN ('click', 'conversion') AND object_id != ''`,
    `ALTER TABLE ${table('search_ids')}
      ADD COLUMN IF NOT EXISTS hours SimpleAggregateFunction(groupUniqArrayArray, Array(DateTime('UTC')))`,
    `DROP VIEW IF EXISTS ${table('search_ids_mv')}`,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${table('search_ids_mv')} TO ${table('search_ids')} AS ${searchIdsSelect(table)}`,
    // Each with a token of its own: through chdb the last insert's token would make it a dropped "duplicate".
    ...Array.from(
      { length: 8 },
      (_, part) => `INSERT INTO ${table('search_ids')} (customer, instance, search_id, first, hours) ${searchIdsSelect(table, part)}
        SETTINGS insert_deduplication_token = '${randomUUID()}'`,
    ),
  ],
};
