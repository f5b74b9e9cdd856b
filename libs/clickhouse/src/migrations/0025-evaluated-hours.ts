import type { Migration } from './migration';

/**
 * Alert hours that resume after a kill (issue 43): a claim on an hour is now followed by an `evaluated` row once its
 * alerts are recorded, and a claim without one after 2 minutes is released by the next claimant (its process died).
 * The `evaluated` rows are bookkeeping like the claims, so they leave after 8 days with them.
 */
export const evaluatedHoursMigration: Migration = {
  id: '0025-evaluated-hours',
  statements: ({ table }) => [
    `ALTER TABLE ${table('alert_log')} MODIFY TTL toDateTime(at) + INTERVAL 8 DAY DELETE WHERE state IN ('claim', 'released', 'evaluated')`,
  ],
};
