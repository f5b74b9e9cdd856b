import type { Migration } from './migration';
import { dimensionTableSql } from './0030-dimensions-ahead';

/**
 * The dimension rows without the searches' tag sets (issue 46; docs/architecture.md, "Filters, users, countries and
 * tags"): `search_dimensions_untagged_hourly` holds the rows of `search_dimensions_hourly` of the same hour and
 * version summed over every tag set, for the requests that filter by no tag (most of them). On the benchmark data a
 * tag set in the key made a row of nearly every search of an hour: 7 times the rows for countries, 30 times for all
 * searches. The dimension pass fills it from the rows it has just computed, and `search_dimension_versions` records
 * its count as `untagged_searches`; a version recorded before this migration (0) is computed again.
 */
export const dimensionsUntaggedMigration: Migration = {
  id: '0031-dimensions-untagged',
  statements: ({ table: t, retentionDays }) => [
    dimensionTableSql(t('search_dimensions_untagged_hourly'), { phrase: false, tags: false }, retentionDays),
    `ALTER TABLE ${t('search_dimension_versions')} ADD COLUMN IF NOT EXISTS untagged_searches Int64 DEFAULT 0 AFTER phrase_searches`,
  ],
};
