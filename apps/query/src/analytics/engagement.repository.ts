import type { ClickHouseService, QueryParams } from '@app/clickhouse';
import { NO_SEARCH_ID } from '@app/contracts';
import type { AnalyticsFilter } from './analytics-scope';
import { filterSql } from './analytics-sql';
import { countsOf, type EngagementCounts, type EngagementRaw } from './engagement';
import type { HourRange } from './window';

/** The highest position of its own in GET /search-terms/{id}'s `positions`; beyond it, one entry for all. */
export const LAST_POSITION = 21;
/** How many objects GET /search-terms/{id} lists. */
export const MAX_OBJECTS = 10;

export interface ObjectCounts {
  object_id: string;
  clicks: number;
  conversions: number;
}

/** The count columns of a group (EngagementRaw), over `s` (searches) LEFT JOIN `p` (per search). */
const GROUP_COLUMNS = `count() AS tracked, countIf(p_clicks > 0) AS clicked, sum(p_clicks) AS clicks_n, sum(p_pos) AS pos_sum,
  countIf(p_conversions > 0) AS converted, sumMap(p_revenue) AS rev, rev.1 AS rev_cur, arrayMap(x -> toString(x), rev.2) AS rev_val`;

/** The columns of EngagementRaw, for a caller that joins groupSql. */
export const ENGAGEMENT_COLUMNS = 'tracked, clicked, clicks_n, pos_sum, converted, rev_cur, rev_val';

/**
 * Every ClickHouse query of the engagement figures (docs/architecture.md, "Clicks and conversions"), shared by GET
 * /search-terms, /search-stats and /search-terms/{id}; exact, from the raw tables:
 * - the tracked searches of a window: each id the clients sent (`search_ids`) whose canonical copy (the smallest of
 *   its copies) lies in the window, matches the filter and found results; the ids are looked up only among those
 *   with a copy in the window (`search_events` is ordered by time);
 * - their clicks and conversions: `interactions` rows with an object, grouped by the identity columns (type,
 *   search, object, position, subtype, value, currency, time, user token), so that an identical interaction stored
 *   twice counts once, without the user tokens erased (`erased_user_tokens`);
 * - unattributed ones: interactions of the window (by their own time) whose search is none or not known.
 */
export class EngagementRepository {
  constructor(private readonly ch: ClickHouseService) {}

  /** `column` within [from, to) of `r`, a DateTime64 column; parameters named after `name`. */
  private range(column: string, r: HourRange, name: string, params: QueryParams): string {
    Object.assign(params, { [`${name}_from`]: Math.floor(r.from / 1000), [`${name}_to`]: Math.floor(r.to / 1000) });
    return `${column} >= toDateTime({${name}_from:UInt32}, 'UTC') AND ${column} < toDateTime({${name}_to:UInt32}, 'UTC')`;
  }

  private tenant(params: QueryParams, f: AnalyticsFilter): string {
    Object.assign(params, { customer: f.customer, instance: f.instance });
    return 'customer = {customer:String} AND instance = {instance:String}';
  }

  /** The ids the clients sent of the searches with a copy in `range` (a superset of searchesSql's). */
  private idsSql(f: AnalyticsFilter, range: HourRange, params: QueryParams): string {
    return `SELECT event_id FROM ${this.ch.table('search_events')}
      WHERE ${this.tenant(params, f)} AND id_sent AND sign > 0 AND ${this.range('ts', range, 'e', params)}`;
  }

  /**
   * `search_id, hour, phrase` of every tracked search whose canonical copy lies in `range` and matches the filter
   * (and, when given, has the phrase of the `phrase` parameter). The canonical copy is the smallest (time first) of
   * an id's copies, so it lies in `range` exactly when the id has a copy there and none before: the smallest of its
   * copies in `range` (sorted and taken with LIMIT 1 BY: a min() over the tuple took 4.2 s for a week of the
   * benchmark's data on one thread, this 0.55 s), unless `search_ids` (the smallest copy of each id) holds an
   * earlier one. The ids are looked up there with a set of up to millions of them, for which the primary key only
   * costs time (8.2 s against 0.3 s for that week): hence the subquery's setting.
   */
  searchesSql(f: AnalyticsFilter, range: HourRange, params: QueryParams, phrase = false): string {
    const tenant = this.tenant(params, f);
    params.no_search = NO_SEARCH_ID;
    params.e_from = Math.floor(range.from / 1000);
    return `SELECT search_id, toStartOfHour(ts) AS hour, phrase FROM (
        SELECT customer, instance, event_id AS search_id, ts, phrase, language, bot, hits FROM ${this.ch.table('search_events')}
        WHERE ${tenant} AND id_sent AND sign > 0 AND ${this.range('ts', range, 'e', params)}
        ORDER BY search_id, ts, phrase, language, bot, hits
        LIMIT 1 BY search_id
      ) WHERE ${filterSql(f, params)} AND hits > 0 AND search_id != toUUID({no_search:String})
        ${phrase ? 'AND phrase = {phrase:String}' : ''}
        AND search_id NOT IN (
          SELECT search_id FROM ${this.ch.table('search_ids')}
          WHERE ${tenant} AND first.1 < toDateTime({e_from:UInt32}, 'UTC') AND search_id IN (${this.idsSql(f, range, params)})
          SETTINGS use_index_for_in_with_subqueries_max_values = 100000
        )`;
  }

  /**
   * Each counted interaction once (clicks and conversions with an object, by identity, erased user tokens left out:
   * the user token's hash, and an Insights event's anonymous `userToken`, kept in `session_hash` when it also names
   * an `authenticatedUserToken`): `type, search_id, object_id, position, value, currency, ts`, where `where` holds.
   */
  private distinctSql(f: AnalyticsFilter, where: string, params: QueryParams): string {
    const tenant = this.tenant(params, f);
    const erased = `SELECT user_token_hash FROM ${this.ch.table('erased_user_tokens')} WHERE ${tenant}`;
    return `SELECT type, search_id, object_id, position, value, currency, ts FROM ${this.ch.table('interactions')}
      WHERE ${tenant} AND type IN ('click', 'conversion') AND object_id != '' AND ${where}
        AND (user_token_hash = '' OR user_token_hash NOT IN (${erased}))
        AND (origin != 'insights' OR session_hash = '' OR session_hash NOT IN (${erased}))
      GROUP BY type, search_id, object_id, position, subtype, value, currency, ts, user_token_hash`;
  }

  /** The counted interactions of the tracked searches of searchesSql. */
  private ofSearchesSql(f: AnalyticsFilter, range: HourRange, params: QueryParams, phrase = false): string {
    return this.distinctSql(f, `search_id IN (SELECT search_id FROM (${this.searchesSql(f, range, params, phrase)}))`, params);
  }

  /**
   * `<key>, tracked, clicked, clicks_n, pos_sum, converted, rev_cur, rev_val` (EngagementRaw) per value of `key`, an
   * expression over `hour` and `phrase` of the tracked searches in `range`.
   */
  groupSql(f: AnalyticsFilter, range: HourRange, key: string, params: QueryParams, phrase = false): string {
    return `SELECT ${key}, ${GROUP_COLUMNS}
      FROM (${this.searchesSql(f, range, params, phrase)}) AS s
      LEFT JOIN (
        SELECT search_id, countIf(type = 'click') AS p_clicks, sumIf(position, type = 'click') AS p_pos,
          countIf(type = 'conversion') AS p_conversions,
          sumMapIf([toString(currency)], [toDecimal128(value, 6)], type = 'conversion' AND value > 0) AS p_revenue
        FROM (${this.distinctSql(f, `search_id IN (${this.idsSql(f, range, params)})`, params)})
        GROUP BY search_id
      ) AS p USING (search_id)
      GROUP BY ${key}`;
  }

  /** The counts per hour (of the searches' canonical copies) of `range`; hours without tracked searches left out. */
  async hours(f: AnalyticsFilter, range: HourRange): Promise<Array<{ hour: number; counts: EngagementCounts }>> {
    const params: QueryParams = {};
    const rows = await this.ch.query<EngagementRaw & { hour_ms: string | number }>(
      this.groupSql(f, range, 'toUnixTimestamp(hour) * 1000 AS hour_ms', params),
      params,
    );
    return rows.map((r) => ({ hour: Number(r.hour_ms), counts: countsOf(r) }));
  }

  /** The counts of one phrase's tracked searches in `range`. */
  async phrase(f: AnalyticsFilter, range: HourRange, phrase: string): Promise<EngagementCounts | undefined> {
    const params: QueryParams = { phrase };
    const [row] = await this.ch.query<EngagementRaw>(this.groupSql(f, range, 'phrase', params, true), params);
    return row ? countsOf(row) : undefined;
  }

  /** One phrase's clicks per position, positions from LAST_POSITION on as LAST_POSITION. */
  async positions(f: AnalyticsFilter, range: HourRange, phrase: string): Promise<Map<number, number>> {
    const params: QueryParams = { phrase, last: LAST_POSITION };
    const rows = await this.ch.query<{ pos: string | number; n: string | number }>(
      `SELECT least(position, {last:UInt16}) AS pos, count() AS n FROM (${this.ofSearchesSql(f, range, params, true)})
       WHERE type = 'click' GROUP BY pos`,
      params,
    );
    return new Map(rows.map((r) => [Number(r.pos), Number(r.n)]));
  }

  /** One phrase's most clicked objects (at least one click), ties by object id, with their conversions. */
  async objects(f: AnalyticsFilter, range: HourRange, phrase: string): Promise<ObjectCounts[]> {
    const params: QueryParams = { phrase, limit: MAX_OBJECTS };
    const rows = await this.ch.query<{ object_id: string; clicks_n: string | number; conversions_n: string | number }>(
      `SELECT object_id, countIf(type = 'click') AS clicks_n, countIf(type = 'conversion') AS conversions_n
       FROM (${this.ofSearchesSql(f, range, params, true)})
       GROUP BY object_id HAVING clicks_n > 0 ORDER BY clicks_n DESC, object_id ASC LIMIT {limit:UInt32}`,
      params,
    );
    return rows.map((r) => ({ object_id: r.object_id, clicks: Number(r.clicks_n), conversions: Number(r.conversions_n) }));
  }

  /**
   * Clicks and conversions per hour of their own time in `range` whose search is none or not known (no id the
   * clients sent), whatever the language and bot filters (an interaction carries neither).
   */
  async unattributed(f: AnalyticsFilter, range: HourRange): Promise<Array<{ hour: number; clicks: number; conversions: number }>> {
    const params: QueryParams = { no_search: NO_SEARCH_ID };
    const inRange = this.range('ts', range, 'i', params);
    const tenant = this.tenant(params, f);
    const unknown = `${inRange} AND (search_id = toUUID({no_search:String}) OR search_id NOT IN (
        SELECT search_id FROM ${this.ch.table('search_ids')}
        WHERE ${tenant} AND search_id IN (SELECT search_id FROM ${this.ch.table('interactions')} WHERE ${tenant} AND ${inRange})
      ))`;
    const rows = await this.ch.query<{ hour_ms: string | number; clicks_n: string | number; conversions_n: string | number }>(
      `SELECT toUnixTimestamp(toStartOfHour(ts)) * 1000 AS hour_ms, countIf(type = 'click') AS clicks_n,
         countIf(type = 'conversion') AS conversions_n
       FROM (${this.distinctSql(f, unknown, params)}) GROUP BY hour_ms`,
      params,
    );
    return rows.map((r) => ({ hour: Number(r.hour_ms), clicks: Number(r.clicks_n), conversions: Number(r.conversions_n) }));
  }
}
