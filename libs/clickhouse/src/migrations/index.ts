import { authMigration } from './0001-auth';
import type { Migration } from './migration';

export type { Migration, MigrationContext } from './migration';

/** Applied in this order; never reorder or edit an applied migration, add a new one. */
export const MIGRATIONS: readonly Migration[] = [authMigration];
