import type { Migration } from './migration';

/**
 * Instance configuration, entities (with autosave revisions) and notifications: append-only, versioned rows;
 * the state of a key is its latest version.
 */
export const configurationMigration: Migration = {
  id: '0003-configuration',
  statements: ({ table }) => [
    `CREATE TABLE IF NOT EXISTS ${table('instance_config')} (
      customer LowCardinality(String),
      instance LowCardinality(String),
      version UInt64,
      webhook_url String,
      changed_by String,
      changed_at DateTime64(3, 'UTC')
    ) ENGINE = ReplacingMergeTree(version) ORDER BY (customer, instance)`,
    // kind: 'save' changes the state; 'autosave' is a revision only. handled_phrases: normalised searchPhrases.
    `CREATE TABLE IF NOT EXISTS ${table('entities')} (
      customer LowCardinality(String),
      instance LowCardinality(String),
      type LowCardinality(String),
      id String,
      version UInt64,
      kind LowCardinality(String),
      deleted Bool,
      search_phrases Array(String),
      handled_phrases Array(String),
      language LowCardinality(String),
      data String,
      changed_by String,
      changed_at DateTime64(3, 'UTC')
    ) ENGINE = MergeTree ORDER BY (customer, instance, type, id, version)`,
    `CREATE TABLE IF NOT EXISTS ${table('notifications')} (
      customer LowCardinality(String),
      instance LowCardinality(String),
      id String,
      version UInt64,
      kind LowCardinality(String),
      message String,
      details String,
      deleted Bool,
      created_at DateTime64(3, 'UTC')
    ) ENGINE = ReplacingMergeTree(version) ORDER BY (customer, instance, id)`,
  ],
};
