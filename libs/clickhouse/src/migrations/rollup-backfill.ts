import { randomUUID } from 'node:crypto';

/** A rollup's key columns, each with the expression over search_events that gives it, in the table's order. */
export type RollupKeys = ReadonlyArray<readonly [column: string, expression: string]>;

/** The key columns the two search-term rollups share; `bucket` (the time column) comes between `bot` and `language`. */
export function searchTermKeys(bucket: { column: string; expression: string }): RollupKeys {
  return [
    ['customer', 'customer'],
    ['instance', 'instance'],
    ['zero_hits', 'hits = 0'],
    ['bot', 'bot'],
    [bucket.column, bucket.expression],
    ['language', 'language'],
    ['phrase', 'phrase'],
  ];
}

/** The SELECT list of a rollup's keys over search_events (`expression AS column`, or the column itself). */
export function selectKeys(keys: RollupKeys): string {
  return keys.map(([column, expression]) => (column === expression ? column : `${expression} AS ${column}`)).join(', ');
}

/**
 * Fills a rollup with exactly the events its materialised view did not count: per key, the raw count minus what
 * the rollup already holds (`searches`), where that is positive. Run after the view exists, it counts the events
 * stored before the view once and those counted by the view not again, whether or not events arrive meanwhile and
 * however often it runs (a second run, or a run after a crash, adds nothing). The embedded engine runs one
 * statement at a time, so this is exact there; on a server, an insert in flight at the very moment of the
 * statement (its raw part committed, its view part not yet) can be counted twice (docs/operations.md).
 *
 * `maxima` are columns holding the maximum of an expression (e.g. the newest event's time); a backfilled row
 * carries the raw maximum, which a `max` over the rollup's rows leaves exact.
 *
 * `counted` is what a raw row counts: `count()` for the migrations before 0012, `sum(sign)` after it (search events
 * are signed from 0012 on: a compensating row has a negative sign).
 *
 * The statement carries its own insert_deduplication_token: through chdb the last insert's token would otherwise
 * be in force and could make this insert a dropped "duplicate".
 */
export function rollupBackfill(
  target: string,
  source: string,
  keys: RollupKeys,
  maxima: ReadonlyArray<readonly [column: string, expression: string]> = [],
  counted: 'count()' | 'sum(sign)' = 'count()',
): string {
  const columns = keys.map(([column]) => column).join(', ');
  const maxColumns = maxima.map(([column]) => `, ${column}`).join('');
  const maxValues = maxima.map(([column]) => `, backfill_${column}`).join('');
  const maxExpressions = maxima.map(([column, expression]) => `, max(${expression}) AS backfill_${column}`).join('');
  return `INSERT INTO ${target} (${columns}, searches${maxColumns})
    SELECT ${columns}, raw_searches - rolled_searches${maxValues}
    FROM (
      SELECT ${selectKeys(keys)}, ${counted} AS raw_searches${maxExpressions}
      FROM ${source}
      GROUP BY ${columns}
    ) AS raw
    LEFT JOIN (
      SELECT ${columns}, sum(searches) AS rolled_searches FROM ${target} GROUP BY ${columns}
    ) AS rolled USING (${columns})
    WHERE raw_searches > rolled_searches
    SETTINGS join_use_nulls = 0, insert_deduplication_token = '${randomUUID()}'`;
}
