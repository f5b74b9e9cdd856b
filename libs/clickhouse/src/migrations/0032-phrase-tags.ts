import type { Migration } from './migration';
import { dimensionTableSql } from './0030-dimensions-ahead';

/**
 * The phrase dimension rows of tagged searches, ordered by tag (issue 46; docs/architecture.md, "Filters, users,
 * countries and tags"): `search_phrase_tags_hourly` holds the `tag` rows of `search_phrase_dimensions_hourly` of the
 * same hour and version (one per tag a search carries, with its whole tag set), ordered by the tag first. The lists
 * and the stats' distinct terms filtered by `tags` read the rows of the wanted tags only; from the phrase table,
 * ordered by term first, they read every phrase row of the window (on the 10M-event benchmark data, the terms of one
 * tag took 1.9 s, from this table 0.15 s). The dimension pass fills it from the phrase rows it has just computed, and
 * `search_dimension_versions.tagged_searches` records the version's phrase searches once its tag rows are all copied
 * (else -1); a version recorded before this migration (0) is computed again.
 */
export const phraseTagsMigration: Migration = {
  id: '0032-phrase-tags',
  statements: ({ table: t, retentionDays }) => [
    dimensionTableSql(t('search_phrase_tags_hourly'), { phrase: true, tags: true, byTag: true }, retentionDays),
    `ALTER TABLE ${t('search_dimension_versions')} ADD COLUMN IF NOT EXISTS tagged_searches Int64 DEFAULT 0 AFTER untagged_searches`,
  ],
};
