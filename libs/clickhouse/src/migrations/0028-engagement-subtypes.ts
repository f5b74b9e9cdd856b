import type { Migration } from './migration';

/**
 * Conversions by subtype (issue 46; docs/architecture.md, "Clicks and conversions"): the engagement figures computed
 * ahead gain, per group of tracked searches, the searches with at least one `addToCart` conversion (`carted`), with at
 * least one `purchase` (`purchased`), and the value of the purchases per currency (`pur_cur`/`pur_val`); each object
 * row of engagement_objects_hourly the same for that object, and the searches that clicked it (`clicked`), for GET
 * /clicked-objects. Hours computed before lack them: ENGAGEMENT_LAYOUT rises to 2, so this release ignores them and
 * its first pass computes every hour again (meanwhile answers read the raw tables, as for an hour not yet computed).
 */
export const engagementSubtypesMigration: Migration = {
  id: '0028-engagement-subtypes',
  statements: ({ table }) =>
    ['engagement_hourly', 'engagement_phrases_hourly', 'engagement_objects_hourly'].flatMap((name) =>
      [
        ...(name === 'engagement_objects_hourly' ? ['clicked UInt64'] : []),
        'carted UInt64',
        'purchased UInt64',
        'pur_cur Array(String)',
        'pur_val Array(Decimal128(6))',
      ].map((column) => `ALTER TABLE ${table(name)} ADD COLUMN IF NOT EXISTS ${column}`),
    ),
};
