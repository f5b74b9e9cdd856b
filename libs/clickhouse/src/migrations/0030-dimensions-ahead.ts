import type { Migration } from './migration';
import { USERS_TYPE } from './0027-search-dimensions';

/** The dimension tables as an earlier form of 0027 made them, with the views that filled them at every insert. */
const OLD_VIEWS = ['search_dimensions_hourly_mv', 'search_phrase_dimensions_hourly_mv'];
/** The tables this migration makes (0031 and 0032 add two more). */
const TABLES = ['search_dimensions_hourly', 'search_phrase_dimensions_hourly'];

/**
 * A dimension table (0030, 0031, 0032): per phrase too when `phrase`, per tag set of the searches when `tags` (the rows
 * of tag sets a request filters by); ordered by the tag row's tag first when `byTag` (0032), else by term and dimension.
 */
export function dimensionTableSql(name: string, o: { phrase: boolean; tags: boolean; byTag?: boolean }, retentionDays: number): string {
  const order = o.byTag
    ? 'value, hour, version, term_id, phrase, zero_hits, bot, language, tags'
    : `${o.phrase ? 'term_id, phrase, ' : ''}dimension, attribute, hour, version, zero_hits, bot, language, ${
        o.tags ? 'tags,\n      ' : ''
      }operator, value`;
  return `CREATE TABLE IF NOT EXISTS ${name} (
      customer LowCardinality(String),
      instance LowCardinality(String),
      ${o.phrase ? 'term_id FixedString(16),\n      phrase String,' : ''}
      dimension LowCardinality(String),
      attribute String,
      hour DateTime('UTC'),
      version DateTime64(6, 'UTC'),
      zero_hits Bool,
      bot Bool,
      language LowCardinality(String),
      ${o.tags ? 'tags Array(String),\n      ' : ''}operator LowCardinality(String),
      value String,
      searches Int64,
      users ${USERS_TYPE},
      last_search Tuple(DateTime64(3, 'UTC'), UInt32),
      INDEX version_idx version TYPE minmax GRANULARITY 1
    ) ENGINE = MergeTree
    PARTITION BY toYYYYMM(hour)
    ORDER BY (customer, instance, ${order})
    TTL hour + toIntervalDay(${retentionDays})`;
}

/**
 * The filters, users, countries and tags of every complete hour, computed ahead of the requests (issue 46;
 * docs/architecture.md, "Filters, users, countries and tags"), not at every insert: a view on search_events cost an
 * insert of 170 searches about 60 ms of the engine's CPU each, the same work in bulk about 2 ms
 * (docs/benchmarks/history/2026-11-27-issue-46-insert-costs.md).
 * - `search_dimensions_hourly`: per hour, language, bot, hits and tag set, the searches, users and latest search of
 *   every filter attribute, filter, filter set, country and tag, and of all searches (`search`), as the raw rows give
 *   them at the time `version` (the pass's start in microseconds, with a random part). `search_phrase_dimensions_hourly`:
 *   the same per phrase, ordered by the term's id. A pass writes an hour again under a newer version.
 * - `search_dimension_versions`: each hour's versions, written after the hour's rows, with the searches the version
 *   counts in each table (`searches`, `phrase_searches`) and the hour's searches in search_totals_hourly (kept at
 *   every insert) when the pass began (`totals`). A reader takes each hour's newest version where both counts are the
 *   total of now, and reads the other hours (the current one, those not computed yet, those that got searches since)
 *   from search_events. A pass computes an hour again once its total changed, so a total that no repair makes right
 *   (a half-done insert on a server) leaves the hour read raw, not computed at every pass.
 * - `version_idx` (minmax) lets a pass count the rows of the version it has just written without reading the others.
 * - Tables that an earlier form of 0027 made and filled by views are dropped with their views: their rows counted
 *   every search of an hour without a version, and the pass computes every hour again.
 */
export const dimensionsAheadMigration: Migration = {
  id: '0030-dimensions-ahead',
  statements: ({ table: t, retentionDays }) => [
    ...OLD_VIEWS.map((view) => `DROP VIEW IF EXISTS ${t(view)}`),
    ...TABLES.map((name) => `DROP TABLE IF EXISTS ${t(name)} SYNC`),
    ...TABLES.map((name, i) => dimensionTableSql(t(name), { phrase: i === 1, tags: true }, retentionDays)),
    `CREATE TABLE IF NOT EXISTS ${t('search_dimension_versions')} (
      customer LowCardinality(String),
      instance LowCardinality(String),
      hour DateTime('UTC'),
      version DateTime64(6, 'UTC'),
      searches Int64,
      phrase_searches Int64,
      totals Int64,
      recorded_at DateTime64(3, 'UTC') DEFAULT now64(3, 'UTC')
    ) ENGINE = MergeTree
    ORDER BY (customer, instance, hour, version)
    TTL hour + toIntervalDay(${retentionDays})`,
  ],
};
