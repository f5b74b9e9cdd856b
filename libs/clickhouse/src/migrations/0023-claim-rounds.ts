import type { Migration } from './migration';

/**
 * A deduplication window on `intake_claims`, for the claims of conditional entity saves (If-Match): the claims of one
 * round on a token share a deduplication token, so the table keeps exactly one of them, atomically. The intake's own
 * claims send a fresh token with every insert and are not affected.
 */
export const claimRoundsMigration: Migration = {
  id: '0023-claim-rounds',
  statements: ({ table }) => [`ALTER TABLE ${table('intake_claims')} MODIFY SETTING non_replicated_deduplication_window = 10000`],
};
