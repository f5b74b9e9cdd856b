import { randomUUID } from 'node:crypto';

/** The key columns the search-term rollups share; the time bucket comes between `bot` and `language`. */
const KEYS_BEFORE = ['customer', 'instance', 'zero_hits', 'bot'];
const KEYS_AFTER = ['language', 'phrase'];

/**
 * Fills a search-term rollup with exactly the events its materialised view did not count: per key, the raw count
 * minus what the rollup already holds, where that is positive. Run after the view exists, it counts the events
 * stored before the view once and those counted by the view not again, whether or not events arrive meanwhile and
 * however often it runs (a second run, or a run after a crash, adds nothing). The embedded engine runs one
 * statement at a time, so this is exact there; on a server, an insert in flight at the very moment of the
 * statement (its raw part committed, its view part not yet) can be counted twice (docs/operations.md).
 *
 * The statement carries its own insert_deduplication_token: through chdb the last insert's token would otherwise
 * be in force and could make this insert a dropped "duplicate".
 */
export function rollupBackfill(target: string, source: string, bucket: { column: string; expression: string }): string {
  const keys = [...KEYS_BEFORE, bucket.column, ...KEYS_AFTER].join(', ');
  return `INSERT INTO ${target} (${keys}, searches)
    SELECT ${keys}, raw_searches - rolled_searches
    FROM (
      SELECT customer, instance, hits = 0 AS zero_hits, bot, ${bucket.expression} AS ${bucket.column}, language, phrase,
        count() AS raw_searches
      FROM ${source}
      GROUP BY customer, instance, zero_hits, bot, ${bucket.column}, language, phrase
    ) AS raw
    LEFT JOIN (
      SELECT ${keys}, sum(searches) AS rolled_searches FROM ${target} GROUP BY ${keys}
    ) AS rolled USING (${keys})
    WHERE raw_searches > rolled_searches
    SETTINGS join_use_nulls = 0, insert_deduplication_token = '${randomUUID()}'`;
}
