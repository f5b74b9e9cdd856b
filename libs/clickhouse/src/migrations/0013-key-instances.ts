import type { Migration } from './migration';

/**
 * The instances an API key is valid for (issue 25). An empty array is a key valid for every instance of the customer,
 * including ones added later: what every key stored before this column existed reads as, through the DEFAULT, so old
 * keys keep working for all instances. A key limited to instances always names at least one.
 */
export const keyInstancesMigration: Migration = {
  id: '0013-key-instances',
  statements: ({ table }) => [
    `ALTER TABLE ${table('api_keys')} ADD COLUMN IF NOT EXISTS instances Array(String) DEFAULT [] AFTER permissions`,
  ],
};
