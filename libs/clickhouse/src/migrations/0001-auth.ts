import type { Migration } from './migration';

/** Customers, API keys and used nonces: append-only, versioned rows; the state is the latest version. */
export const authMigration: Migration = {
  id: '0001-auth',
  statements: ({ table }) => [
    `CREATE TABLE IF NOT EXISTS ${table('customers')} (
      customer LowCardinality(String),
      version UInt64,
      instances Array(String),
      basic_login String,
      basic_password_hash String,
      changed_at DateTime64(3, 'UTC')
    ) ENGINE = ReplacingMergeTree(version) ORDER BY customer`,
    `CREATE TABLE IF NOT EXISTS ${table('api_keys')} (
      customer LowCardinality(String),
      id String,
      version UInt64,
      description String,
      permissions Array(LowCardinality(String)),
      secret String,
      legacy Bool,
      revoked Bool,
      created_at DateTime64(3, 'UTC'),
      changed_at DateTime64(3, 'UTC')
    ) ENGINE = ReplacingMergeTree(version) ORDER BY (customer, id)`,
    `CREATE TABLE IF NOT EXISTS ${table('used_nonces')} (
      customer LowCardinality(String),
      nonce String,
      used_at DateTime('UTC')
    ) ENGINE = MergeTree ORDER BY (customer, nonce) TTL used_at + INTERVAL 1 DAY`,
  ],
};
