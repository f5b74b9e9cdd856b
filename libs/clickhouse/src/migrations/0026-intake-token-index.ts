import type { Migration } from './migration';

/** The raw tables whose rows carry a request's retry token (`intake_token`, migrations 0015 and 0016). */
const TOKEN_TABLES = ['search_events', 'interactions'] as const;

/**
 * Retries read the raw rows (issue 43, docs/decisions/0070-retries-read-the-raw-rows.md): the embedded intake looks
 * a request's retry token up in `search_events` and `interactions` themselves (IntakeTokensRepository), at every
 * insert that has tokens. Their key (customer, instance, ts) narrows that to a tenant only: `ts` is the client's
 * time, unrelated to the token. Two skipping indexes narrow it to the granules that may hold the tokens:
 *
 * - `intake_token_idx`, a bloom filter: a granule is read only when one of the looked-up tokens may be in it (a
 *   bloom filter answers `IN` lists, one test per value); 1% false positives per token, so a lookup of many tokens
 *   keeps more granules (measured: 2 tokens 2% of a tenant's granules, 100 tokens 61%).
 * - `received_at_idx`, a minmax: the lookup asks for the last day, and events arrive soon after their time, so the
 *   granules received within a day are those of the last day or two of `ts` (measured: 3% of 80 days), whatever the
 *   number of tokens. Together: 2 tokens 0.2%, 100 tokens 1.6% of 4M events of one tenant.
 *
 * Both are materialised for the parts stored before, by one background mutation per table (`system.mutations`
 * shows it). Not materialising would not leave only the last day's parts unindexed: a part without an index file
 * is read in full by every lookup (EXPLAIN: all its granules kept), and the parts of past months are never merged
 * again until the TTL drops them, so every insert would read a tenant's whole history for the retention period
 * (4M events: 117 MB per lookup, 0.5 MB once indexed; ClickHouse 26 skips merged parts by their column statistics,
 * 24.8 and 25 do not). The mutation reads the two columns once and writes only the index files (4M events: 0.6 s
 * on the embedded engine). Lookups meanwhile are slower, never wrong; materialising again (a migration run taken
 * over, see MigrationLock) only repeats the work.
 */
export const intakeTokenIndexMigration: Migration = {
  id: '0026-intake-token-index',
  statements: ({ table }) =>
    TOKEN_TABLES.flatMap((name) => [
      `ALTER TABLE ${table(name)} ADD INDEX IF NOT EXISTS intake_token_idx intake_token TYPE bloom_filter(0.01) GRANULARITY 1`,
      `ALTER TABLE ${table(name)} ADD INDEX IF NOT EXISTS received_at_idx received_at TYPE minmax GRANULARITY 1`,
      `ALTER TABLE ${table(name)} MATERIALIZE INDEX intake_token_idx, MATERIALIZE INDEX received_at_idx`,
    ]),
};
