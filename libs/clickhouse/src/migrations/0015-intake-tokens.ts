import type { Migration } from './migration';

/**
 * Retries of POST /events on the embedded transport (issue 28): requests share inserts now, so a request's retry
 * token can no longer be the insert's deduplication token. Each row of such a request carries the token
 * (`intake_token`, '' for every other row), and a view records it in `intake_requests` (unused since the Kafka
 * transport moved to `intake_claims`) in the same insert, so a token is recorded exactly when its rows are stored.
 * A retry within a day finds its token there and stores nothing.
 */
export const intakeTokensMigration: Migration = {
  id: '0015-intake-tokens',
  statements: ({ table }) => [
    `ALTER TABLE ${table('search_events')} ADD COLUMN IF NOT EXISTS intake_token String DEFAULT ''`,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${table('intake_requests_mv')} TO ${table('intake_requests')} AS
      SELECT customer, instance, intake_token AS token, toDateTime(received_at) AS received_at
      FROM ${table('search_events')}
      WHERE intake_token != ''`,
  ],
};
