import type { Migration } from './migration';

/**
 * Alerts (issue 30). `alert_config`: append-only versioned rows of an instance's alert configuration (JSON, '' when
 * alerts are off, the default; the latest version holds), apart from `instance_config` which the webhooks module
 * owns. `alert_log`: append-only rows, all processes read them in the same order (the store's clock,
 * then the claim):
 * - `hour:<ISO hour>` with state `claim`: a process's claim on evaluating that hour. The claims of a round share a
 *   deduplication token, so the table keeps one (the deduplication window), and that claim evaluates the hour once
 *   however many query processes run; `released` gives up a claim whose evaluation failed and starts the next round
 *   (both kept 8 days);
 * - `term:<phrase>` with state `raised` (and the unhandled languages) or `resolved`: the latest row says whether an
 *   unhandled zero-result term has an open alert, so it is raised once until it is handled (kept).
 */
export const alertsMigration: Migration = {
  id: '0020-alerts',
  statements: ({ table }) => [
    `CREATE TABLE IF NOT EXISTS ${table('alert_config')} (
      customer LowCardinality(String),
      instance LowCardinality(String),
      version UInt64,
      config String,
      changed_by String,
      changed_at DateTime64(3, 'UTC')
    ) ENGINE = ReplacingMergeTree(version) ORDER BY (customer, instance)`,
    `CREATE TABLE IF NOT EXISTS ${table('alert_log')} (
      customer LowCardinality(String),
      instance LowCardinality(String),
      key String,
      state LowCardinality(String),
      languages Array(String),
      claim String,
      at DateTime64(6, 'UTC') DEFAULT now64(6)
    ) ENGINE = MergeTree ORDER BY (customer, instance, key, at, claim)
    TTL toDateTime(at) + INTERVAL 8 DAY DELETE WHERE state IN ('claim', 'released')
    SETTINGS non_replicated_deduplication_window = 10000`,
  ],
};
