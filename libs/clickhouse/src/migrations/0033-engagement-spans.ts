import type { Migration } from './migration';

/**
 * Every phrase's engagement figures over the last 30 days, kept ahead (issue 47; docs/architecture.md, "Orders kept
 * ahead"): the orders by the figures (`sort=no_clicks`, `click_through_rate`, `conversion_rate`,
 * `average_click_position`) and a whole list's CSV need the figures of every phrase of the window; summed per hour
 * from `engagement_phrases_hourly`, 30 days of 100M events took seconds.
 *
 * - `engagement_phrase_spans`: per span (its version), phrase, language and bot, the sums of the hours of the span
 *   as `engagement_phrases_hourly` holds them at the versions the span records.
 * - `engagement_spans`: a span's record, written after its rows: its hours [span_from, span_to) as runs of hours with the
 *   version of each run (`run_from`, `run_to`, `run_version`), and the layout of the figures it sums.
 *
 * The engagement pass builds a span per instance when the settled hours move on (each hour) or many of its hours are
 * computed again. A window's figures are the span's, less the span's hours outside the window, plus the window's
 * hours after it, each hour read at its version; an hour computed again since reads its new version in place of the
 * span's. The versions a span records are kept until the span is replaced.
 */
export const engagementSpansMigration: Migration = {
  id: '0033-engagement-spans',
  statements: ({ table, retentionDays }) => [
    `CREATE TABLE IF NOT EXISTS ${table('engagement_phrase_spans')} (
      customer LowCardinality(String),
      instance LowCardinality(String),
      span DateTime64(6, 'UTC'),
      phrase String,
      language LowCardinality(String),
      bot Bool,
      tracked UInt64,
      clicked UInt64,
      clicks UInt64,
      pos_sum UInt64,
      converted UInt64,
      rev_cur Array(String),
      rev_val Array(Decimal128(6)),
      carted UInt64,
      purchased UInt64,
      pur_cur Array(String),
      pur_val Array(Decimal128(6))
    ) ENGINE = MergeTree
    ORDER BY (customer, instance, span, phrase, language, bot)
    TTL toDateTime(span) + toIntervalDay(${retentionDays})`,
    `CREATE TABLE IF NOT EXISTS ${table('engagement_spans')} (
      customer LowCardinality(String),
      instance LowCardinality(String),
      span DateTime64(6, 'UTC'),
      span_from DateTime('UTC'),
      span_to DateTime('UTC'),
      run_from Array(DateTime('UTC')),
      run_to Array(DateTime('UTC')),
      run_version Array(DateTime64(6, 'UTC')),
      layout UInt8,
      recorded_at DateTime64(3, 'UTC') DEFAULT now64(3)
    ) ENGINE = MergeTree
    ORDER BY (customer, instance, span)
    TTL toDateTime(span) + toIntervalDay(${retentionDays})`,
  ],
};
