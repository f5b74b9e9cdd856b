import { randomUUID } from 'node:crypto';
import type { Migration } from './migration';
import { TERM_ID_SQL } from './0010-analytics';
import { selectKeys, type RollupKeys } from './rollup-backfill';
import type { SignedRollup } from './0012-signed-events';

/**
 * The rows a search makes in the dimension rollups, as tuples (dimension, attribute, operator, value), in this order:
 * one `search` row for every search (its users and tags, the totals the breakdowns divide by), one `filter_attribute`
 * per distinct attribute of its filters, one `filter_value` per distinct filter, one `filter_set` with the whole set
 * (sorted, without repeats, as a JSON array of [attribute, operator, value]) when it has filters, one `country` when
 * it has one, and one `tag` per tag.
 */
export const DIMENSIONS_SQL = `arrayConcat(
    [('search', '', '', '')],
    arrayMap(a -> ('filter_attribute', a, '', ''), arrayDistinct(filter_attributes)),
    arrayMap(f -> ('filter_value', f.1, f.2, f.3), arrayDistinct(arrayZip(filter_attributes, filter_operators, filter_values))),
    if(empty(filter_attributes), [], [('filter_set', '', '',
      toJSONString(arraySort(arrayDistinct(arrayMap((a, o, v) -> [a, o, v], filter_attributes, filter_operators, filter_values))))
    )]),
    if(country = '', [], [('country', '', '', toString(country))]),
    arrayMap(t -> ('tag', '', '', t), tags))`;

/**
 * Who searched, as a uniqCombined64 state of precision 14 (docs/architecture.md, "Filters, users, countries and tags"):
 * the user token's hash, else the session's (marked apart, so a session id equal to some user token is another
 * shopper); nobody without either. A hash erased by DELETE /1/usertokens (`erased`: the erased_user_tokens table) is
 * never counted, so no state written after the erasure holds it, whatever the order of the writes.
 */
export function usersState(erased: string): string {
  const kept = (column: string) =>
    `(${column} != '' AND (customer, instance, ${column}) NOT IN (SELECT customer, instance, user_token_hash FROM ${erased}))`;
  const user = kept('user_hash');
  return `uniqCombined64StateIf(14)(if(${user}, user_hash, concat('s', session_hash)), ${user} OR ${kept('session_hash')})`;
}
export const USERS_TYPE = 'AggregateFunction(uniqCombined64(14), String)';

/** The time and hits of the latest search of a key (the larger hits of two at one time): a phrase's `last_hits`. */
const LAST_SEARCH = 'max((ts, hits))';

const DIMENSION_KEYS: RollupKeys = [
  ['dimension', 'd.1'],
  ['attribute', 'd.2'],
  ['hour', 'toStartOfHour(ts)'],
  ['zero_hits', 'hits = 0'],
  ['bot', 'bot'],
  ['language', 'language'],
  ['tags', 'tags'],
  ['operator', 'd.3'],
  ['value', 'd.4'],
];

/** The dimension rollups: every search's rows per hour, and the same per phrase (ordered by the term's id first). */
export const DIMENSION_ROLLUPS: readonly SignedRollup[] = [
  {
    table: 'search_dimensions_hourly',
    view: 'search_dimensions_hourly_mv',
    keys: [['customer', 'customer'], ['instance', 'instance'], ...DIMENSION_KEYS],
    aggregating: false,
    dimensions: DIMENSIONS_SQL,
  },
  {
    table: 'search_phrase_dimensions_hourly',
    view: 'search_phrase_dimensions_hourly_mv',
    keys: [['customer', 'customer'], ['instance', 'instance'], ['term_id', TERM_ID_SQL], ['phrase', 'phrase'], ...DIMENSION_KEYS],
    aggregating: false,
    dimensions: DIMENSIONS_SQL,
  },
];

const columns = (keys: RollupKeys) => keys.map(([column]) => column).join(', ');

function table(name: string, phrase: boolean, retentionDays: number): string {
  return `CREATE TABLE IF NOT EXISTS ${name} (
      customer LowCardinality(String),
      instance LowCardinality(String),
      ${phrase ? 'term_id FixedString(16),\n      phrase String,' : ''}
      dimension LowCardinality(String),
      attribute String,
      hour DateTime('UTC'),
      zero_hits Bool,
      bot Bool,
      language LowCardinality(String),
      tags Array(String),
      operator LowCardinality(String),
      value String,
      searches SimpleAggregateFunction(sum, Int64),
      users ${USERS_TYPE},
      last_search SimpleAggregateFunction(max, Tuple(DateTime64(3, 'UTC'), UInt32))
    ) ENGINE = AggregatingMergeTree
    PARTITION BY toYYYYMM(hour)
    ORDER BY (customer, instance, ${phrase ? 'term_id, phrase, ' : ''}dimension, attribute, hour, zero_hits, bot, language, tags, operator,
      value)
    TTL hour + toIntervalDay(${retentionDays})
    SETTINGS non_replicated_deduplication_window = 10000`;
}

/**
 * A rollup's rows computed from search_events (`where` restricts them), per key: the count (`raw_searches`), and the
 * newest time (`raw_last_ts`) where the rollup keeps it, or the users (`raw_users`) and latest search
 * (`raw_last_search`) in a dimension rollup, whose rows are made by `dimensions` (its own by default). `table` names
 * the tables (the migrations' and ClickHouseService's table()).
 */
export function rawRollupRows(
  rollup: SignedRollup,
  table: (name: string) => string,
  where: string,
  dimensions = rollup.dimensions,
): string {
  const source = table('search_events');
  const from = dimensions === undefined ? source : `${source} ARRAY JOIN ${dimensions} AS d`;
  const extra =
    dimensions !== undefined
      ? `, ${usersState(table('erased_user_tokens'))} AS raw_users, ${LAST_SEARCH} AS raw_last_search`
      : rollup.aggregating
        ? ', max(ts) AS raw_last_ts'
        : '';
  return `SELECT ${selectKeys(rollup.keys)}, sum(sign) AS raw_searches${extra}
    FROM ${from} WHERE ${where} GROUP BY ${columns(rollup.keys)}`;
}

/**
 * Makes a dimension rollup's rows where `raw` holds (a condition on search_events) count what the raw rows count: per
 * key the raw count minus what the rollup holds where `rolled` holds (the same rows), where that is positive, with the
 * raw users and latest search (a union and a max, so repeating it changes nothing). Rows an insert adds meanwhile are
 * not counted twice. `dimensions` makes each search's rows (the rollup's own by default); `settings` are added.
 */
export function dimensionRefill(
  rollup: SignedRollup,
  t: (name: string) => string,
  where: { raw: string; rolled: string },
  options: { dimensions?: string; settings?: string } = {},
): string {
  const target = t(rollup.table);
  const keys = columns(rollup.keys);
  return `INSERT INTO ${target} (${keys}, searches, users, last_search)
    SELECT ${keys}, raw_searches - rolled_searches, raw_users, raw_last_search FROM (
      ${rawRollupRows(rollup, t, where.raw, options.dimensions)}
    ) AS raw
    LEFT JOIN (
      SELECT ${keys}, sum(searches) AS rolled_searches FROM ${target} WHERE ${where.rolled} GROUP BY ${keys}
    ) AS rolled USING (${keys})
    WHERE raw_searches > rolled_searches
    SETTINGS join_use_nulls = 0, ${options.settings ?? ''}insert_deduplication_token = '${randomUUID()}'`;
}

/**
 * The `search` rows of the events stored before the views, one month per statement (what a month of 100M events
 * groups stays within memory, spilled to disk beyond 2 GB; dimensionRefill). Events stored before this migration have
 * no filters, country or tags, so `search` is their only row. A kill between two months leaves the next start to run
 * them all again: each finds what is left, nothing where it ran.
 */
function backfill(rollup: SignedRollup, t: (name: string) => string, month: number): string {
  const inMonth = (column: string) => `toStartOfMonth(${column}) = addMonths(toStartOfMonth(today()), -${month})`;
  return dimensionRefill(
    rollup,
    t,
    { raw: inMonth('ts'), rolled: `dimension = 'search' AND ${inMonth('hour')}` },
    { dimensions: "[('search', '', '', '')]", settings: 'max_bytes_before_external_group_by = 2000000000, ' },
  );
}

/**
 * Why a search found nothing and who searched (issue 46; docs/architecture.md, "Filters, users, countries and tags"):
 * - search_events gains the filters (three parallel arrays, as sent and trimmed), the user token's hash, the country
 *   and the tags (sorted, without repeats). Rows stored before have none.
 * - `search_dimensions_hourly`: per hour, language, bot, hits and tag set, the searches and users of every filter
 *   attribute, filter, filter set, country and tag, and of all searches (`search`): the breakdowns and the users of
 *   the stats read whole hours here. `search_phrase_dimensions_hourly`: the same per phrase, ordered by the term's id,
 *   for a breakdown of one phrase, a term's filters and the lists restricted to tags.
 * Both count sum(sign) like every rollup of the signed events and join the storage check (their raw count is each
 * search's rows, DIMENSIONS_SQL); `users` and `last_search` (the latest search's time and hits, a phrase's
 * `last_hits`) cannot be negated, so a repair writes the raw ones again (a union, a max).
 */
export const searchDimensionsMigration: Migration = {
  id: '0027-search-dimensions',
  statements: ({ table: t, retentionDays }) => [
    ...[
      'filter_attributes Array(String)',
      'filter_operators Array(LowCardinality(String))',
      'filter_values Array(String)',
      "user_hash String DEFAULT ''",
      "country LowCardinality(String) DEFAULT ''",
      'tags Array(String)',
    ].map((column) => `ALTER TABLE ${t('search_events')} ADD COLUMN IF NOT EXISTS ${column}`),
    ...DIMENSION_ROLLUPS.flatMap((rollup, i) => [
      table(t(rollup.table), i === 1, retentionDays),
      `CREATE MATERIALIZED VIEW IF NOT EXISTS ${t(rollup.view)} TO ${t(rollup.table)} AS
        SELECT ${selectKeys(rollup.keys)}, sum(sign) AS searches, ${usersState(t('erased_user_tokens'))} AS users,
          ${LAST_SEARCH} AS last_search
        FROM ${t('search_events')} ARRAY JOIN ${DIMENSIONS_SQL} AS d
        GROUP BY ${columns(rollup.keys)}`,
      ...Array.from({ length: Math.ceil(retentionDays / 28) + 1 }, (_, month) => backfill(rollup, t, month)),
    ]),
  ],
};
