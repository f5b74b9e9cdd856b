import { Injectable } from '@nestjs/common';
import { ClickHouseService, type DimensionTable, type QueryParams } from '@app/clickhouse';
import type { AnalyticsFilter } from '../analytics/analytics-scope';
import { filterSql, hourRangeSql, termRowsSql } from '../analytics/analytics-sql';
import { DimensionRepository } from '../analytics/dimension.repository';
import { tagRowsSql, tagsSql, type TagsFilter } from '../analytics/tags-param';
import { EngagementRepository } from '../analytics/engagement.repository';
import type { HourRange } from '../analytics/window';

export interface TotalsHour {
  /** Start of the hour, ms. */
  hour: number;
  searches: number;
  zero_hit_searches: number;
  /** The newest event of the hour, ms. */
  newest: number;
}

export interface LanguageSearches {
  language: string;
  searches: number;
}

/** Every ClickHouse query of GET /search-stats. */
@Injectable()
export class SearchStatsRepository {
  constructor(
    private readonly ch: ClickHouseService,
    /** engagement=true: the clicks and conversions of the window. */
    readonly engagement: EngagementRepository,
    private readonly dimensionRepository: DimensionRepository,
  ) {}

  /**
   * Searches per hour of [from, to) from the hourly totals (hours without any are left out); with `tags`, only the
   * searches carrying them, from the `search` rows of the dimension rows (DimensionRepository), which keep no newest time (0).
   */
  async hours(f: AnalyticsFilter, range: HourRange, tags?: TagsFilter): Promise<TotalsHour[]> {
    const params: QueryParams = {};
    const source = await this.source(f, tags, range, params);
    // Aliases differ from the column names: ClickHouse would read the column name as the alias in WHERE and sumIf.
    const rows = await this.ch.query<Record<'hour_ms' | 'searches_n' | 'zero_n' | 'newest', string | number>>(
      `SELECT toUnixTimestamp(hour) * 1000 AS hour_ms, sum(searches) AS searches_n, sumIf(searches, zero_hits) AS zero_n,
         ${tags ? '0' : 'toUnixTimestamp64Milli(max(last_ts))'} AS newest
       FROM ${source} AND ${hourRangeSql(range, 'w', params)}
       GROUP BY hour_ms`,
      params,
    );
    return rows.map((r) => ({
      hour: Number(r.hour_ms),
      searches: Number(r.searches_n),
      zero_hit_searches: Number(r.zero_n),
      newest: Number(r.newest),
    }));
  }

  /**
   * Searches per language in [from, to) from the hourly totals (a few rows per hour, as for the series), most searched
   * first, ties by language ascending. The filter's language is not applied: the list is every language of the window.
   */
  async languages(f: AnalyticsFilter, range: HourRange, tags?: TagsFilter): Promise<LanguageSearches[]> {
    const params: QueryParams = {};
    const rows = await this.ch.query<{ language: string; searches_n: string | number }>(
      `SELECT language, sum(searches) AS searches_n
       FROM ${await this.source({ ...f, language: undefined }, tags, range, params)} AND ${hourRangeSql(range, 'w', params)}
       GROUP BY language HAVING searches_n > 0 ORDER BY searches_n DESC, language ASC`,
      params,
    );
    return rows.map((r) => ({ language: r.language, searches: Number(r.searches_n) }));
  }

  /**
   * Distinct users of the searches in the window (user token, else session), per bucket (`starts`: each bucket's
   * start, ms, ascending) and in all, merged from the hourly states of the `search` dimension rows (DimensionRepository).
   */
  async users(
    f: AnalyticsFilter,
    range: HourRange,
    starts: readonly number[],
    tags?: TagsFilter,
  ): Promise<{ total: number; buckets: number[] }> {
    const params: QueryParams = { starts: starts.map((ms) => ms / 1000) };
    const rows = await this.ch.query<{ bucket: string | number; users_n: string | number }>(
      `SELECT arrayCount(b -> b <= toUnixTimestamp(hour), {starts:Array(UInt32)}) AS bucket, uniqCombined64Merge(14)(users) AS users_n
       FROM ${await this.dimensions(f, tags, range, params)} AND ${hourRangeSql(range, 'w', params)}
       GROUP BY GROUPING SETS ((bucket), ())`,
      params,
    );
    const buckets = starts.map(() => 0);
    let total = 0;
    for (const r of rows) {
      // The grand total is the row of the empty grouping set: its bucket is the default, 0 (a bucket's index is 1 on).
      if (Number(r.bucket) === 0) {
        total = Number(r.users_n);
      } else {
        buckets[Number(r.bucket) - 1] = Number(r.users_n);
      }
    }
    return { total, buckets };
  }

  /** Distinct normalised phrases searched in the window and, when given, in the one before, from the term rollups. */
  async distinctTerms(
    f: AnalyticsFilter,
    window: HourRange,
    previous?: HourRange,
    tags?: TagsFilter,
  ): Promise<{ current: number; previous: number }> {
    if (tags) {
      return this.distinctTaggedTerms(f, window, previous, tags);
    }
    const params: QueryParams = {};
    // No subtracted hours: every phrase of the rows was searched in the window, so counting the groups needs no
    // sum (summing signed rows to drop phrases of subtracted hours measured a fifth slower at 30 days). Measured on
    // the 10M-event benchmark data: counting the groups of a GROUP BY is twice as fast as uniqExact(phrase), grouping
    // by the phrase alone a quarter faster than by (phrase, window), and grouping by a 128-bit phrase hash slower
    // (16 incompressible bytes a row); so one GROUP BY per window.
    const options = { subtract: false };
    const distinct = (w: HourRange, tag: 0 | 1) =>
      `(SELECT count() FROM (SELECT phrase FROM (${termRowsSql(this.ch, f, w, tag, params, options)}) GROUP BY phrase))`;
    const [row] = await this.ch.query<{ current_n: string | number; previous_n: string | number }>(
      `SELECT ${distinct(window, 1)} AS current_n, ${previous ? distinct(previous, 0) : '0'} AS previous_n`,
      params,
    );
    return { current: Number(row.current_n), previous: Number(row.previous_n) };
  }

  /** distinctTerms of the searches carrying `tags`, from one tag row of each (the phrase dimensions' ordered by tag). */
  private async distinctTaggedTerms(f: AnalyticsFilter, window: HourRange, previous: HourRange | undefined, tags: TagsFilter) {
    const params: QueryParams = {};
    const range = { from: previous?.from ?? window.from, to: window.to };
    const rows = await this.dimensions(f, tags, range, params, 'search_phrase_tags_hourly');
    const inWindow = (name: string, r: HourRange) => hourRangeSql(r, name, params);
    const [row] = await this.ch.query<{ current_n: string | number; previous_n: string | number }>(
      `SELECT uniqExactIf(phrase, ${inWindow('c', window)}) AS current_n,
         ${previous ? `uniqExactIf(phrase, ${inWindow('p', previous)})` : '0'} AS previous_n
       FROM (SELECT phrase, hour FROM ${rows} GROUP BY phrase, hour HAVING sum(searches) > 0)`,
      params,
    );
    return { current: Number(row.current_n), previous: Number(row.previous_n) };
  }

  /** The rows the figures come from: the hourly totals, or with `tags` the `search` rows of the dimensions. */
  private async source(f: AnalyticsFilter, tags: TagsFilter | undefined, range: HourRange, params: QueryParams): Promise<string> {
    return tags ? this.dimensions(f, tags, range, params) : `${this.ch.table('search_totals_hourly')} WHERE ${filterSql(f, params)}`;
  }

  /**
   * The `search` rows (one per search) of the hours of `range` of a dimension table under the filter and tags
   * (DimensionRepository), as `(...) WHERE ...`; of the tag rows ordered by tag, one tag row of each search.
   */
  private async dimensions(
    f: AnalyticsFilter,
    tags: TagsFilter | undefined,
    range: HourRange,
    params: QueryParams,
    // Without a tag to filter by, the rows summed over the tag sets (far fewer).
    table: DimensionTable['table'] = tags ? 'search_dimensions_hourly' : 'search_dimensions_untagged_hourly',
  ): Promise<string> {
    const rows =
      table === 'search_phrase_tags_hourly' ? tagRowsSql(tags as TagsFilter, params) : `dimension = 'search' AND ${tagsSql(tags, params)}`;
    const where = `${filterSql(f, params)} AND ${rows} AND ${hourRangeSql(range, 'd', params)}`;
    return `${this.dimensionRepository.sql(table, f, await this.dimensionRepository.plan(table, f, range), where, params, 'd')} WHERE 1`;
  }
}
