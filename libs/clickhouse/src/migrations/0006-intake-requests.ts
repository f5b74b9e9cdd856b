import type { Migration } from './migration';

/**
 * Requests of POST /events whose events all carried ids, once acknowledged by Kafka: a client retry of the same
 * request within a day is answered without producing the events again.
 */
export const intakeRequestsMigration: Migration = {
  id: '0006-intake-requests',
  statements: ({ table }) => [
    `CREATE TABLE IF NOT EXISTS ${table('intake_requests')} (
      customer LowCardinality(String),
      instance LowCardinality(String),
      token String,
      received_at DateTime('UTC')
    ) ENGINE = ReplacingMergeTree ORDER BY (customer, instance, token) TTL received_at + INTERVAL 1 DAY`,
  ],
};
