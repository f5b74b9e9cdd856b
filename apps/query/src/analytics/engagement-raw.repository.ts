import { Injectable } from '@nestjs/common';
import { ClickHouseService, type QueryParams } from '@app/clickhouse';
import { NO_SEARCH_ID } from '@app/contracts';
import type { AnalyticsFilter } from './analytics-scope';
import { filterSql } from './analytics-sql';
import type { HourRange } from './window';
import { LAST_POSITION } from './engagement';

/** The conversions of each subtype that count by subtype (added to the cart, purchased). */
const ADD_TO_CART = "type = 'conversion' AND subtype = 'addToCart'";
const PURCHASE = "type = 'conversion' AND subtype = 'purchase'";

/** The columns of a group's positions and objects (EngagementRawRepository.rawObjectsSql, engagement_objects_hourly). */
export const OBJECT_COLUMNS =
  'hour, phrase, language, bot, kind, position, object_id, clicks, conversions, clicked, carted, purchased, pur_cur, pur_val';

/** `column` within [from, to) of `r`, a DateTime64 column; parameters named after `name`. */
export function rangeSql(column: string, r: HourRange, name: string, params: QueryParams): string {
  Object.assign(params, { [`${name}_from`]: Math.floor(r.from / 1000), [`${name}_to`]: Math.floor(r.to / 1000) });
  return `${column} >= toDateTime({${name}_from:UInt32}, 'UTC') AND ${column} < toDateTime({${name}_to:UInt32}, 'UTC')`;
}

export function tenantSql(params: QueryParams, f: AnalyticsFilter): string {
  Object.assign(params, { customer: f.customer, instance: f.instance });
  return 'customer = {customer:String} AND instance = {instance:String}';
}

/**
 * The engagement figures computed from the raw tables, as SQL that EngagementRepository reads for the hours not
 * computed ahead and EngagementRefresh computes those hours with (docs/architecture.md, "Clicks and conversions");
 * exact:
 * - the tracked searches of a window: each id the clients sent (`search_ids`) whose canonical copy (the smallest of
 *   its copies) lies in the window, matches the filter and found results; the ids are looked up only among those
 *   with a copy in the window (`search_events` is ordered by time);
 * - their clicks and conversions: `interactions` rows with an object, grouped by the identity columns (type,
 *   search, object, position, subtype, value, currency, time, user token), so that an identical interaction stored
 *   twice counts once, without the user tokens erased (`erased_user_tokens`);
 * - unattributed ones: interactions of the window (by their own time) whose search is none or not known.
 */
@Injectable()
export class EngagementRawRepository {
  constructor(private readonly ch: ClickHouseService) {}

  /** The ids the clients sent of the searches with a copy in `range` (a superset of searchesSql's). */
  private idsSql(f: AnalyticsFilter, range: HourRange, params: QueryParams, tag: string): string {
    return `SELECT event_id FROM ${this.ch.table('search_events')}
      WHERE ${tenantSql(params, f)} AND id_sent AND sign > 0 AND ${rangeSql('ts', range, `e${tag}`, params)}`;
  }

  /**
   * `search_id, hour, phrase` of every tracked search whose canonical copy lies in `range` and matches the filter
   * (and, with `phrases`, has one of the phrases of the `phrases` parameter). The canonical copy is the smallest (time first) of
   * an id's copies, so it lies in `range` exactly when the id has a copy there and none before: the smallest of its
   * copies in `range` (sorted and taken with LIMIT 1 BY: a min() over the tuple took 4.2 s for a week of the
   * benchmark's data on one thread, this 0.55 s), unless `search_ids` (the smallest copy of each id) holds an
   * earlier one. The ids are looked up there with a set of up to millions of them, for which the primary key only
   * costs time (8.2 s against 0.3 s for that week): hence the subquery's setting. `tag` names the parameters of
   * one range of several in a query.
   */
  searchesSql(f: AnalyticsFilter, range: HourRange, params: QueryParams, phrases = false, tag = ''): string {
    const tenant = tenantSql(params, f);
    params.no_search = NO_SEARCH_ID;
    const inRange = rangeSql('ts', range, `e${tag}`, params);
    return `SELECT search_id, toStartOfHour(ts) AS hour, phrase, language, bot FROM (
        SELECT customer, instance, event_id AS search_id, ts, phrase, language, bot, hits FROM ${this.ch.table('search_events')}
        WHERE ${tenant} AND id_sent AND sign > 0 AND ${inRange}
        ORDER BY search_id, ts, phrase, language, bot, hits
        LIMIT 1 BY search_id
      ) WHERE ${filterSql(f, params)} AND hits > 0 AND search_id != toUUID({no_search:String})
        ${phrases ? 'AND phrase IN {phrases:Array(String)}' : ''}
        AND search_id NOT IN (
          SELECT search_id FROM ${this.ch.table('search_ids')}
          WHERE ${tenant} AND first.1 < toDateTime({e${tag}_from:UInt32}, 'UTC') AND search_id IN (${this.idsSql(f, range, params, tag)})
          SETTINGS use_index_for_in_with_subqueries_max_values = 100000
        )`;
  }

  /**
   * Each counted interaction once (clicks and conversions with an object, by identity, erased user tokens left out:
   * the user token's hash, and an Insights event's anonymous `userToken`, kept in `session_hash` when it also names
   * an `authenticatedUserToken`): `type, search_id, object_id, position, subtype, value, currency, ts`, where `where` holds.
   */
  distinctSql(f: AnalyticsFilter, where: string, params: QueryParams): string {
    const tenant = tenantSql(params, f);
    const erased = `SELECT user_token_hash FROM ${this.ch.table('erased_user_tokens')} WHERE ${tenant}`;
    return `SELECT type, search_id, object_id, position, subtype, value, currency, ts FROM ${this.ch.table('interactions')}
      WHERE ${tenant} AND type IN ('click', 'conversion') AND object_id != '' AND ${where}
        AND (user_token_hash = '' OR user_token_hash NOT IN (${erased}))
        AND (origin != 'insights' OR session_hash = '' OR session_hash NOT IN (${erased}))
      GROUP BY type, search_id, object_id, position, subtype, value, currency, ts, user_token_hash`;
  }

  /**
   * OBJECT_COLUMNS of every group (hour, phrase, language, bot) of the tracked searches of `range`, computed from the
   * raw tables, as engagement_objects_hourly holds them: `kind` position, the clicks per position (from LAST_POSITION
   * on as LAST_POSITION); `kind` object, per clicked or converted object its clicks and conversions, the searches that
   * clicked it, added it to the cart and purchased it, and the value of its purchases per currency.
   */
  rawObjectsSql(f: AnalyticsFilter, range: HourRange, params: QueryParams, phrases = false, tag = ''): string {
    params.last = LAST_POSITION;
    // For some phrases, only their searches' interactions: not every interaction of the range's searches.
    const ids = phrases
      ? `SELECT search_id FROM (${this.searchesSql(f, range, params, phrases, tag)})`
      : this.idsSql(f, range, params, tag);
    const joined = `(${this.searchesSql(f, range, params, phrases, tag)}) AS s
      INNER JOIN (${this.distinctSql(f, `search_id IN (${ids})`, params)}) AS i USING (search_id)`;
    return `SELECT hour, phrase, language, bot, 'position' AS kind, least(position, {last:UInt16}) AS position, '' AS object_id,
        count() AS clicks, 0 AS conversions, 0 AS clicked, 0 AS carted, 0 AS purchased, [] AS pur_cur, [] AS pur_val
      FROM ${joined} WHERE type = 'click'
      GROUP BY hour, phrase, language, bot, position
      UNION ALL
      SELECT hour, phrase, language, bot, 'object' AS kind, 0 AS position, object_id, sum(o_clicks) AS clicks,
        sum(o_conversions) AS conversions, countIf(o_clicks > 0) AS clicked, countIf(o_carts > 0) AS carted,
        countIf(o_purchases > 0) AS purchased, sumMap(o_pur).1 AS pur_cur, sumMap(o_pur).2 AS pur_val
      FROM (
        SELECT hour, phrase, language, bot, search_id, object_id, countIf(type = 'click') AS o_clicks,
          countIf(type = 'conversion') AS o_conversions, countIf(${ADD_TO_CART}) AS o_carts,
          countIf(${PURCHASE}) AS o_purchases, sumMapIf([toString(currency)], [toDecimal128(value, 6)], ${PURCHASE} AND value > 0) AS o_pur
        FROM ${joined}
        GROUP BY hour, phrase, language, bot, search_id, object_id
      )
      GROUP BY hour, phrase, language, bot, object_id`;
  }

  /**
   * PART_COLUMNS of every group (hour, phrase, language, bot) of the tracked searches of `range`, computed from the raw
   * tables: the reference every answer and every hour computed ahead is equal to.
   */
  rawGroupsSql(f: AnalyticsFilter, range: HourRange, params: QueryParams, phrases = false, tag = ''): string {
    return `SELECT hour, phrase, language, bot, count() AS g_tracked, countIf(p_clicks > 0) AS g_clicked, sum(p_clicks) AS g_clicks,
        sum(p_pos) AS g_pos, countIf(p_conversions > 0) AS g_converted, sumMap(p_revenue) AS g_rev, g_rev.1 AS g_cur, g_rev.2 AS g_val,
        countIf(p_carts > 0) AS g_carted, countIf(p_purchases > 0) AS g_purchased, sumMap(p_purchase_revenue) AS g_pur,
        g_pur.1 AS g_pcur, g_pur.2 AS g_pval
      FROM (${this.searchesSql(f, range, params, phrases, tag)}) AS s
      LEFT JOIN (
        SELECT search_id, countIf(type = 'click') AS p_clicks, sumIf(position, type = 'click') AS p_pos,
          countIf(type = 'conversion') AS p_conversions,
          sumMapIf([toString(currency)], [toDecimal128(value, 6)], type = 'conversion' AND value > 0) AS p_revenue,
          countIf(${ADD_TO_CART}) AS p_carts, countIf(${PURCHASE}) AS p_purchases,
          sumMapIf([toString(currency)], [toDecimal128(value, 6)], ${PURCHASE} AND value > 0) AS p_purchase_revenue
        FROM (${this.distinctSql(f, `search_id IN (${this.idsSql(f, range, params, tag)})`, params)})
        GROUP BY search_id
      ) AS p USING (search_id)
      GROUP BY hour, phrase, language, bot`;
  }
}
