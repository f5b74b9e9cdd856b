import type { Migration } from './migration';

/**
 * The preset a key was made with (issue 48, `POST /secret` with `preset`), empty for a key made from permissions only.
 * An analytics key (`preset: "analytics"`) holds analytics:read, which an HMAC key may hold too; what sets it apart is
 * how its secret travels (as it is, in `X-Algolia-API-Key`), so its kind is stored, not read from its permissions.
 */
export const keyPresetsMigration: Migration = {
  id: '0034-key-presets',
  statements: ({ table }) => [
    `ALTER TABLE ${table('api_keys')} ADD COLUMN IF NOT EXISTS preset LowCardinality(String) DEFAULT '' AFTER origins`,
  ],
};
