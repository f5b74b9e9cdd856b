import type { Migration } from './migration';

/**
 * Whether a customer's Basic credentials are the ones the first start generated and nobody has signed in with yet
 * (issue 26): while so, every start prints them again. Rows stored before this column existed read as false (their
 * plain password is not kept anywhere, so there is nothing to print).
 */
export const basicPendingMigration: Migration = {
  id: '0014-basic-pending',
  statements: ({ table }) => [`ALTER TABLE ${table('customers')} ADD COLUMN IF NOT EXISTS basic_pending Bool DEFAULT false`],
};
