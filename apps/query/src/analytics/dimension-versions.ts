import { DIMENSION_TABLES, dimensionColumns, type DimensionTable } from '@app/clickhouse';
import type { VersionedTables } from './engagement-cleanup';

/**
 * The versions of the dimension tables' hours (docs/architecture.md, "Filters, users, countries and tags"): which are
 * recorded, which a reader may read, and how a table computed from another gets its rows.
 */
export const DIMENSION_VERSIONS: VersionedTables = {
  versions: 'search_dimension_versions',
  computed: DIMENSION_TABLES.map((d) => d.table),
};

/**
 * Per instance and hour where `where` holds (on customer, instance and hour): the newest version recorded
 * (`version`, 0 for none) with the searches it counts in each table (`computed`, `phrase_computed`,
 * `untagged_computed`, `tagged_computed`) and the hour's total when its pass began (`recorded`), and the searches
 * search_events holds now, as search_totals_hourly counts them at every insert (`stored`). A table's rows of a
 * version are read only where its count is `stored`; an hour is computed again once `stored` is no longer `recorded`.
 * To be run with join_use_nulls = 0.
 */
export function hourStatesSql(t: (name: string) => string, where: string): string {
  // Aliases differ from the column names: ClickHouse would read the column name as the alias inside the aggregates.
  return `SELECT customer, instance, hour, newest AS version, counted AS computed, phrase_counted AS phrase_computed,
      untagged_counted AS untagged_computed, tagged_counted AS tagged_computed, recorded_total AS recorded, total AS stored FROM (
      SELECT customer, instance, hour, max(version) AS newest, argMax(searches, version) AS counted,
        argMax(phrase_searches, version) AS phrase_counted, argMax(untagged_searches, version) AS untagged_counted,
        argMax(tagged_searches, version) AS tagged_counted, argMax(totals, version) AS recorded_total
      FROM ${t(DIMENSION_VERSIONS.versions)} WHERE ${where} GROUP BY customer, instance, hour
    ) AS v FULL OUTER JOIN (
      SELECT customer, instance, hour, toInt64(sum(searches)) AS total
      FROM ${t('search_totals_hourly')} WHERE ${where} GROUP BY customer, instance, hour
    ) AS s USING (customer, instance, hour)`;
}

/** The column of hourStatesSql with the searches a version counts in each dimension table. */
export const COMPUTED: Readonly<Record<DimensionTable['table'], string>> = {
  search_dimensions_hourly: 'computed',
  search_phrase_dimensions_hourly: 'phrase_computed',
  search_dimensions_untagged_hourly: 'untagged_computed',
  search_phrase_tags_hourly: 'tagged_computed',
};

/**
 * The rows of a table computed from another (`d.from`, named `from`) where `where` holds: the rows `d.only` keeps,
 * summed over the keys `d` drops (copied as they are where it drops none).
 */
export function derivedRowsSql(d: DimensionTable, from: string, where: string): string {
  const source = DIMENSION_TABLES.find((t) => t.table === d.from) as DimensionTable;
  const only = d.only ? ` AND ${d.only}` : '';
  return dimensionColumns(source) === dimensionColumns(d)
    ? `SELECT ${dimensionColumns(d)}, searches, users, last_search FROM ${from} WHERE ${where}${only}`
    : `SELECT ${dimensionColumns(d)}, sum(searches) AS searches, uniqCombined64MergeState(14)(users) AS users,
         max(last_search) AS last_search
       FROM ${from} WHERE ${where}${only}
       GROUP BY ${dimensionColumns(d)}`;
}
