import type { QueryParams } from '@app/clickhouse';
import { filterSql, hourRangeSql } from '../analytics/analytics-sql';
import type { DimensionRepository } from '../analytics/dimension.repository';
import { tagRowsSql, tagsSql, type TagsFilter } from '../analytics/tags-param';
import type { VersionPlan } from '../analytics/version-plan';
import type { HourRange } from '../analytics/window';
import type { TermsRequest } from './search-terms.repository';

/** The phrase dimension table (0030): per phrase, hour and tag set, every search's rows. */
const TABLE = 'search_phrase_dimensions_hourly';
/** Its tag rows ordered by tag (0032). */
const TAGGED = 'search_phrase_tags_hourly';

/**
 * How a list reads the dimension rows (DimensionRepository.plan): `extras` the phrase table's in its window (for
 * last_hits and with_filters), `tagged` and `taggedPrevious` the tag rows' in its window and the one before.
 */
export interface TermDimensionPlans {
  extras?: VersionPlan;
  tagged?: VersionPlan;
  taggedPrevious?: VersionPlan;
}

/** The plans of a list that reads dimension rows (with tags, last_hits or with_filters); undefined for one that reads none. */
export async function termDimensionPlans(dimensions: DimensionRepository, r: TermsRequest): Promise<TermDimensionPlans | undefined> {
  if (!r.tags && !hasLastHits(r) && !r.withFilters) {
    return undefined;
  }
  const [extras, tagged, taggedPrevious] = await Promise.all([
    hasLastHits(r) || r.withFilters ? dimensions.plan(TABLE, r.scope, r.scope.window) : undefined,
    r.tags ? dimensions.plan(TAGGED, r.scope, r.scope.window) : undefined,
    r.tags && r.previous ? dimensions.plan(TAGGED, r.scope, r.previous) : undefined,
  ]);
  return { extras, tagged, taggedPrevious };
}

/**
 * `phrase, signed, <tag> AS cur` of the searches carrying the request's tags, one tag row of each (whole hours of the
 * window, read as `plan` says; the rollups without tags cannot tell them apart).
 */
export function taggedTermRowsSql(
  dimensions: DimensionRepository,
  r: TermsRequest,
  window: HourRange,
  plan: VersionPlan,
  tag: 0 | 1,
  params: QueryParams,
): string {
  const kind = r.allHits ? '' : `AND zero_hits = ${r.zeroHits ? 1 : 0}`;
  const where = `${filterSql(r.scope, params)} ${kind} AND ${tagRowsSql(r.tags as TagsFilter, params)}
    AND ${hourRangeSql(window, `t${tag}`, params)}`;
  const rows = dimensions.sql(TAGGED, r.scope, plan, where, params, `t${tag}`);
  return `SELECT phrase, toInt64(searches) AS signed, ${tag} AS cur FROM ${rows}`;
}

/**
 * `phrase` with `last_hits` (the hits of its latest search in the window, whatever they were) and `with_filters` (its
 * zero-result searches that had a filter set), each only when the request shows it (else 0), from the phrase
 * dimension table, under the request's filter and tags; only the terms of `ids` (their ids in hex, the table's order)
 * when given, else every phrase of the window (the CSV joins them to all its rows).
 */
export function termExtrasSql(
  dimensions: DimensionRepository,
  r: TermsRequest,
  plan: VersionPlan,
  params: QueryParams,
  ids?: string[],
): string {
  if (ids) {
    params.ids = ids;
  }
  const only = ids ? 'AND term_id IN (SELECT unhex(arrayJoin({ids:Array(String)})))' : '';
  // Only the rows of what the request shows: a phrase's filter set rows outnumber its search rows ten to one (at 100M
  // events, the ten top phrases' 30 days: 20.7M against 2.1M), and last_hits needs only the latter.
  const rows = [hasLastHits(r) ? "dimension = 'search'" : '', r.withFilters ? "(dimension = 'filter_set' AND zero_hits)" : ''];
  const where = `${filterSql(r.scope, params)} AND (${rows.filter(Boolean).join(' OR ')}) AND ${tagsSql(r.tags, params)}
    AND ${hourRangeSql(r.scope.window, 'x', params)} ${only}`;
  return `SELECT phrase, maxIf(last_search, dimension = 'search').2 AS last_hits,
      sumIf(searches, dimension = 'filter_set' AND zero_hits) AS with_filters
    FROM ${dimensions.sql(TABLE, r.scope, plan, where, params, 'x')}
    GROUP BY phrase`;
}

/** Whether a list's entries carry last_hits: with hits=all and with engagement=true. */
export function hasLastHits(r: TermsRequest): boolean {
  return r.allHits === true || r.engagement === true;
}
