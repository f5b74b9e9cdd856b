import type { Migration } from './migration';

/**
 * Claims of POST /events requests whose events all carry ids, on the Kafka transport: the first claim of a token
 * (by the store's clock) produces, identical requests arriving meanwhile at any process wait for its outcome, and an
 * acknowledged token answers retries for a day without producing again. Plain MergeTree: every claim row is kept
 * until its TTL, so all processes read the same claims in the same order.
 */
export const intakeClaimsMigration: Migration = {
  id: '0008-intake-claims',
  statements: ({ table }) => [
    `CREATE TABLE IF NOT EXISTS ${table('intake_claims')} (
      customer LowCardinality(String),
      instance LowCardinality(String),
      token String,
      claim String,
      state LowCardinality(String),
      at DateTime64(6, 'UTC') DEFAULT now64(6)
    ) ENGINE = MergeTree ORDER BY (customer, instance, token, at, claim) TTL toDateTime(at) + INTERVAL 1 DAY`,
  ],
};
