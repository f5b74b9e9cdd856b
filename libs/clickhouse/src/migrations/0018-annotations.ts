import type { Migration } from './migration';

/**
 * Annotations on the analytics charts (issue 30, `POST /annotations`): append-only, versioned rows like the
 * notifications; the state of an annotation is its latest version, a deletion appends a deleted version. `ts` is the
 * moment the annotation marks, `created_by` who made it (scheme:principal).
 */
export const annotationsMigration: Migration = {
  id: '0018-annotations',
  statements: ({ table }) => [
    `CREATE TABLE IF NOT EXISTS ${table('annotations')} (
      customer LowCardinality(String),
      instance LowCardinality(String),
      id String,
      version UInt64,
      ts DateTime64(3, 'UTC'),
      text String,
      deleted Bool,
      created_by String,
      created_at DateTime64(3, 'UTC')
    ) ENGINE = ReplacingMergeTree(version) ORDER BY (customer, instance, id)`,
  ],
};
