import type { Migration } from './migration';

/** The hash columns of the raw tables: 64 hexadecimal characters each (or empty). */
const HASH_COLUMNS: ReadonlyArray<readonly [table: string, column: string]> = [
  ['search_events', 'session_hash'],
  ['search_events', 'user_hash'],
  ['interactions', 'session_hash'],
  ['interactions', 'user_token_hash'],
];

/**
 * The hashes of sessions and user tokens compressed with ZSTD (issue 46;
 * docs/benchmarks/history/2026-11-27-issue-46-insert-costs.md): 64 hexadecimal characters carry 4 bits each, which
 * LZ4 (the default codec) cannot use, as it only finds repeats; ZSTD's entropy coding halves them. Only the codec
 * changes (not a mutation): parts written from now on use it, parts written before keep theirs until a merge rewrites
 * them, so the upgrade costs no rewrite. Readers see no difference.
 */
export const hashCodecsMigration: Migration = {
  id: '0029-hash-codecs',
  statements: ({ table }) => HASH_COLUMNS.map(([name, column]) => `ALTER TABLE ${table(name)} MODIFY COLUMN ${column} CODEC(ZSTD(1))`),
};
