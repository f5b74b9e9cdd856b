import type { Migration } from './migration';

/**
 * The layout of the engagement figures computed ahead that this release writes and reads: recorded with each hour's
 * version (`engagement_versions.layout`) and each pass (`engagement_passes.layout`). A release that computes more per
 * hour raises it (2: conversions by subtype, 0028); hours and passes of another layout are ignored, so a process of
 * the earlier release still running during an upgrade cannot record an hour that lacks what this one reads.
 */
export const ENGAGEMENT_LAYOUT = 2;

/**
 * A term's clicks per position and its clicked and converted objects, computed ahead per hour with the other
 * engagement figures (issue 31; docs/architecture.md, "Clicks and conversions"): `engagement_objects_hourly` holds,
 * per hour, phrase, language and bot of the tracked searches, the clicks per position (`kind` position, positions
 * from the last one listed on as that one) and the clicks and conversions per object (`kind` object), under the
 * version of the pass that computed them, as engagement_hourly does. Ordered by phrase first: a term's detail reads
 * one phrase of 720 hours. `engagement_phrases_hourly` holds engagement_hourly's phrase rows again, ordered by phrase
 * first, for the same reason: a list's page and a term's detail read a few phrases (at 100M events, finding them
 * among 30 days of hour-first rows took seconds).
 *
 * The hours computed before have no such rows: they are layout 0 (the column's default), which this release ignores,
 * so its first pass computes every hour again (meanwhile answers read the raw tables, as for an hour not yet
 * computed).
 */
export const engagementObjectsMigration: Migration = {
  id: '0024-engagement-objects',
  statements: ({ table, retentionDays }) => [
    `CREATE TABLE IF NOT EXISTS ${table('engagement_objects_hourly')} (
      customer LowCardinality(String),
      instance LowCardinality(String),
      phrase String,
      hour DateTime('UTC'),
      version DateTime64(6, 'UTC'),
      language LowCardinality(String),
      bot Bool,
      kind Enum8('position' = 1, 'object' = 2),
      position UInt16,
      object_id String,
      clicks UInt64,
      conversions UInt64
    ) ENGINE = MergeTree
    PARTITION BY toYYYYMM(hour)
    ORDER BY (customer, instance, phrase, hour, version, kind, language, bot, position, object_id)
    TTL hour + toIntervalDay(${retentionDays})`,
    `CREATE TABLE IF NOT EXISTS ${table('engagement_phrases_hourly')} (
      customer LowCardinality(String),
      instance LowCardinality(String),
      phrase String,
      hour DateTime('UTC'),
      version DateTime64(6, 'UTC'),
      language LowCardinality(String),
      bot Bool,
      tracked UInt64,
      clicked UInt64,
      clicks UInt64,
      pos_sum UInt64,
      converted UInt64,
      rev_cur Array(String),
      rev_val Array(Decimal128(6))
    ) ENGINE = MergeTree
    PARTITION BY toYYYYMM(hour)
    ORDER BY (customer, instance, phrase, hour, version, language, bot)
    TTL hour + toIntervalDay(${retentionDays})`,
    `ALTER TABLE ${table('engagement_versions')} ADD COLUMN IF NOT EXISTS layout UInt8 DEFAULT 0`,
    `ALTER TABLE ${table('engagement_passes')} ADD COLUMN IF NOT EXISTS layout UInt8 DEFAULT 0`,
  ],
};
