import type { Migration } from './migration';

/**
 * The Algolia index names an instance declares (issue 48, `PUT /configuration` with `algoliaIndexes`), which Algolia's
 * Analytics API (`GET /2/...?index=`) reads as that instance, optionally one language of it: append-only versioned
 * rows of the instance's whole map as JSON (`{}` when none; the latest version holds).
 */
export const algoliaIndexesMigration: Migration = {
  id: '0035-algolia-indexes',
  statements: ({ table }) => [
    `CREATE TABLE IF NOT EXISTS ${table('algolia_indexes')} (
      customer LowCardinality(String),
      instance LowCardinality(String),
      version UInt64,
      indexes String,
      changed_by String,
      changed_at DateTime64(3, 'UTC')
    ) ENGINE = ReplacingMergeTree(version) ORDER BY (customer, instance)`,
  ],
};
