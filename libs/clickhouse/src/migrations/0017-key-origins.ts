import type { Migration } from './migration';

/**
 * The origins a collector key grants CORS to (issue 29, `POST /secret` with `preset: "collector"`). An empty array:
 * any origin, which is also what every other key reads (only collector keys are used across origins).
 */
export const keyOriginsMigration: Migration = {
  id: '0017-key-origins',
  statements: ({ table }) => [`ALTER TABLE ${table('api_keys')} ADD COLUMN IF NOT EXISTS origins Array(String) DEFAULT [] AFTER instances`],
};
