import type { ClickHouseService, QueryParams } from '@app/clickhouse';
import { filterSql, hourRangeSql } from '../analytics/analytics-sql';
import { tagsSql } from '../analytics/tags-param';
import type { HourRange } from '../analytics/window';
import type { TermsRequest } from './search-terms.repository';

/** The phrase dimension rollup (0027): per phrase, hour and tag set, every search's rows. */
const TABLE = 'search_phrase_dimensions_hourly';

/**
 * `phrase, signed, <tag> AS cur` of the searches carrying the request's tags, from the `search` rows of the phrase
 * dimension rollup (whole hours of the window; the rollups without tags cannot tell them apart).
 */
export function taggedTermRowsSql(ch: ClickHouseService, r: TermsRequest, window: HourRange, tag: 0 | 1, params: QueryParams): string {
  const kind = r.allHits ? '' : `AND zero_hits = ${r.zeroHits ? 1 : 0}`;
  return `SELECT phrase, toInt64(searches) AS signed, ${tag} AS cur FROM ${ch.table(TABLE)}
    WHERE ${filterSql(r.scope, params)} AND dimension = 'search' ${kind} AND ${tagsSql(r.tags, params)}
      AND ${hourRangeSql(window, `t${tag}`, params)}`;
}

/**
 * `phrase` with `last_hits` (the hits of its latest search in the window, whatever they were) and `with_filters` (its
 * zero-result searches that had a filter set) from the phrase dimension rollup, under the request's filter and tags;
 * only the terms of `ids` (their ids in hex, the rollup's order) when given, else every phrase of the window (the CSV
 * joins them to all its rows).
 */
export function termExtrasSql(ch: ClickHouseService, r: TermsRequest, params: QueryParams, ids?: string[]): string {
  if (ids) {
    params.ids = ids;
  }
  const only = ids ? 'AND term_id IN (SELECT unhex(arrayJoin({ids:Array(String)})))' : '';
  return `SELECT phrase, maxIf(last_search, dimension = 'search').2 AS last_hits,
      sumIf(searches, dimension = 'filter_set' AND zero_hits) AS with_filters
    FROM ${ch.table(TABLE)}
    WHERE ${filterSql(r.scope, params)} AND dimension IN ('search', 'filter_set') AND ${tagsSql(r.tags, params)}
      AND ${hourRangeSql(r.scope.window, 'x', params)} ${only}
    GROUP BY phrase`;
}

/** Whether a list's entries carry last_hits: with hits=all and with engagement=true. */
export function hasLastHits(r: TermsRequest): boolean {
  return r.allHits === true || r.engagement === true;
}
