import type { Migration } from './migration';
import { TERM_ID_SQL } from './0010-analytics';
import { selectKeys, type RollupKeys } from './rollup-backfill';

/**
 * The rows a search makes in the dimension tables, as tuples (dimension, attribute, operator, value), in this order:
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

/**
 * A table of dimension rows, computed per hour ahead of the requests (0030, 0031, 0032): its name, key columns, and for
 * a table computed from another's rows of the same version (summed over the keys it drops), that table, and the rows
 * of it taken (`only`, a condition; all without).
 */
export interface DimensionTable {
  table: 'search_dimensions_hourly' | 'search_phrase_dimensions_hourly' | 'search_dimensions_untagged_hourly' | 'search_phrase_tags_hourly';
  keys: RollupKeys;
  from?: DimensionTable['table'];
  only?: string;
}

const PHRASE_KEYS: RollupKeys = [
  ['customer', 'customer'],
  ['instance', 'instance'],
  ['term_id', TERM_ID_SQL],
  ['phrase', 'phrase'],
  ...DIMENSION_KEYS,
];

/**
 * The dimension tables: every search's rows per hour and tag set, the same per phrase (ordered by the term's id
 * first), the first without the tag sets (for requests that filter by no tag), computed from the first, and the tag
 * rows of the second ordered by tag (for the lists filtered by tags), copied from the second.
 */
export const DIMENSION_TABLES: readonly DimensionTable[] = [
  { table: 'search_dimensions_hourly', keys: [['customer', 'customer'], ['instance', 'instance'], ...DIMENSION_KEYS] },
  { table: 'search_phrase_dimensions_hourly', keys: PHRASE_KEYS },
  {
    table: 'search_dimensions_untagged_hourly',
    keys: [['customer', 'customer'], ['instance', 'instance'], ...DIMENSION_KEYS.filter(([column]) => column !== 'tags')],
    from: 'search_dimensions_hourly',
  },
  { table: 'search_phrase_tags_hourly', keys: PHRASE_KEYS, from: 'search_phrase_dimensions_hourly', only: "dimension = 'tag'" },
];

/** A dimension table's key columns, comma-separated. */
export const dimensionColumns = (d: DimensionTable) => d.keys.map(([column]) => column).join(', ');

/**
 * The rows of a dimension table that the search events where `where` holds (a condition on search_events) make, per
 * key: `searches` (sum(sign)), `users` (usersState) and `last_search` (the latest search's time and hits). `t` names
 * the tables (the migrations' and ClickHouseService's table()).
 */
export function dimensionRowsSql(d: DimensionTable, t: (name: string) => string, where: string): string {
  return `SELECT ${selectKeys(d.keys)}, sum(sign) AS searches, ${usersState(t('erased_user_tokens'))} AS users,
      ${LAST_SEARCH} AS last_search
    FROM ${t('search_events')} ARRAY JOIN ${DIMENSIONS_SQL} AS d
    WHERE ${where}
    GROUP BY ${dimensionColumns(d)}`;
}

/**
 * Why a search found nothing and who searched (issue 46; docs/architecture.md, "Filters, users, countries and tags"):
 * search_events gains the filters (three parallel arrays, as sent and trimmed), the user token's hash, the country
 * and the tags (sorted, without repeats). Rows stored before have none. The tables computed from them are made by
 * 0030 (an earlier form of this migration made them with views, which cost an insert too much).
 */
export const searchDimensionsMigration: Migration = {
  id: '0027-search-dimensions',
  statements: ({ table: t }) =>
    [
      'filter_attributes Array(String)',
      'filter_operators Array(LowCardinality(String))',
      'filter_values Array(String)',
      "user_hash String DEFAULT ''",
      "country LowCardinality(String) DEFAULT ''",
      'tags Array(String)',
    ].map((column) => `ALTER TABLE ${t('search_events')} ADD COLUMN IF NOT EXISTS ${column}`),
};
