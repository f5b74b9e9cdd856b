import { Injectable } from '@nestjs/common';
import { ClickHouseService, type QueryParams } from '@app/clickhouse';
import { DomainError } from '@app/errors';
import type { AnalyticsScope } from '../analytics/analytics-scope';
import { filterSql, handlersSql, hourRangeSql, unhandledSql, zeroResultLanguagesSql } from '../analytics/analytics-sql';
import { DimensionRepository } from '../analytics/dimension.repository';
import { EngagementRepository } from '../analytics/engagement.repository';
import { tagsSql, type TagsFilter } from '../analytics/tags-param';

export interface TermHour {
  phrase: string;
  /** Start of the hour, ms. */
  hour: number;
  count: number;
  zero_hit_count: number;
  /** The newest event of the hour, ms. */
  newest: number;
}

export interface TermFilter {
  attribute: string;
  operator: string;
  value: string;
  searches: number;
  zero_hit_searches: number;
}

/** The 404 of a term's detail and suggestions: one wording. */
export function termNotFound(id: string): DomainError {
  return new DomainError('not-found', `No search of the term ${id} in the window`);
}

/**
 * Every ClickHouse query of GET /search-terms/{id}, all on search_term_spellings_hourly: its rows are ordered by
 * the term id, so one term's window is a short range of the table, whatever the window's length or time zone.
 */
@Injectable()
export class TermDetailRepository {
  constructor(
    private readonly ch: ClickHouseService,
    /** engagement=true: the clicks and conversions of the term's tracked searches. */
    readonly engagement: EngagementRepository,
    private readonly dimensions: DimensionRepository,
  ) {}

  private where(scope: AnalyticsScope, id: string, params: QueryParams): string {
    params.id = id;
    return `${filterSql(scope, params)} AND term_id = unhex({id:String}) AND ${hourRangeSql(scope.window, 'w', params)}`;
  }

  /** The term's phrase, when it was searched in the window. */
  async phraseOf(scope: AnalyticsScope, id: string): Promise<string | undefined> {
    const params: QueryParams = {};
    const [row] = await this.ch.query<{ term: string }>(
      `SELECT any(phrase) AS term FROM ${this.ch.table('search_term_spellings_hourly')} WHERE ${this.where(scope, id, params)}
       HAVING count() > 0`,
      params,
    );
    return row?.term;
  }

  /**
   * The term's searches per hour of the window (hours without any are left out); with `tags`, only those carrying
   * them, from the `search` rows of the phrase dimension rows, which keep no newest time (0).
   */
  async hours(scope: AnalyticsScope, id: string, tags?: TagsFilter): Promise<TermHour[]> {
    const params: QueryParams = {};
    const source = tags
      ? await this.phraseDimensions(scope, `${this.where(scope, id, params)} AND dimension = 'search' AND ${tagsSql(tags, params)}`, params)
      : `${this.ch.table('search_term_spellings_hourly')} WHERE ${this.where(scope, id, params)}`;
    // Aliases differ from the column names: ClickHouse would read the column name as the alias in WHERE and sumIf.
    const rows = await this.ch.query<Record<'term' | 'hour_ms' | 'searches_n' | 'zero_n' | 'newest', string | number>>(
      `SELECT any(phrase) AS term, toUnixTimestamp(hour) * 1000 AS hour_ms, sum(searches) AS searches_n,
         sumIf(searches, zero_hits) AS zero_n, ${tags ? '0' : 'toUnixTimestamp64Milli(max(last_ts))'} AS newest
       FROM ${source}
       GROUP BY hour_ms HAVING searches_n > 0`,
      params,
    );
    return rows.map((r) => ({
      phrase: String(r.term),
      hour: Number(r.hour_ms),
      count: Number(r.searches_n),
      zero_hit_count: Number(r.zero_n),
      newest: Number(r.newest),
    }));
  }

  /**
   * The filters most used with the term's searches in the window (its phrase dimension rows), most
   * searched first, ties by attribute, operator and value.
   */
  async filters(scope: AnalyticsScope, id: string, limit: number, tags?: TagsFilter): Promise<TermFilter[]> {
    const params: QueryParams = { limit };
    const where = `${this.where(scope, id, params)} AND dimension = 'filter_value' AND ${tagsSql(tags, params)}`;
    const rows = await this.ch.query<Record<'attribute' | 'operator' | 'value' | 's' | 'z', string | number>>(
      `SELECT attribute, operator, value, sum(searches) AS s, sumIf(searches, zero_hits) AS z
       FROM ${await this.phraseDimensions(scope, where, params)}
       GROUP BY attribute, operator, value HAVING s > 0
       ORDER BY s DESC, attribute, operator, value LIMIT {limit:UInt32}`,
      params,
    );
    return rows.map((r) => ({
      attribute: String(r.attribute),
      operator: String(r.operator),
      value: String(r.value),
      searches: Number(r.s),
      zero_hit_searches: Number(r.z),
    }));
  }

  /** The window's rows of the phrase dimension table where `where` holds (DimensionRepository), as `(...) WHERE 1`. */
  private async phraseDimensions(scope: AnalyticsScope, where: string, params: QueryParams): Promise<string> {
    const table = 'search_phrase_dimensions_hourly';
    return `${this.dimensions.sql(table, scope, await this.dimensions.plan(table, scope, scope.window), where, params, 't')} WHERE 1`;
  }

  /** The most frequent original spellings of the term in the window, ties by spelling. */
  async variants(scope: AnalyticsScope, id: string, limit: number): Promise<Array<{ phrase: string; count: number }>> {
    const params: QueryParams = { limit };
    const rows = await this.ch.query<{ spelling: string; n: string | number }>(
      `SELECT raw_phrase AS spelling, sum(searches) AS n
       FROM ${this.ch.table('search_term_spellings_hourly')} WHERE ${this.where(scope, id, params)}
       GROUP BY raw_phrase ORDER BY n DESC, raw_phrase ASC LIMIT {limit:UInt32}`,
      params,
    );
    return rows.map((r) => ({ phrase: r.spelling, count: Number(r.n) }));
  }

  /**
   * The entities that handle the phrase, as sorted [type, id], and without a language filter the languages of the
   * window in which it was searched and found nothing that none of them handles (unhandledSql).
   */
  async handlers(scope: AnalyticsScope, phrase: string): Promise<{ handlers: Array<[string, string]>; unhandled?: string[] }> {
    const params: QueryParams = { phrase };
    if (scope.language) {
      const rows = await this.ch.query<{ handlers: Array<[string, string]> }>(
        `SELECT handlers FROM (${handlersSql(this.ch, scope, params)}) WHERE phrase = {phrase:String}`,
        params,
      );
      return { handlers: rows[0]?.handlers ?? [] };
    }
    const [row] = await this.ch.query<{ handlers: Array<[string, string]>; unhandled: string[] }>(
      `SELECT handlers, ${unhandledSql('languages', 'covered')} AS unhandled
       FROM (SELECT {phrase:String} AS phrase) AS t
       LEFT JOIN (${handlersSql(this.ch, scope, params)}) AS h USING (phrase)
       LEFT JOIN (${zeroResultLanguagesSql(this.ch, scope, scope.window, 'phrase = {phrase:String}', params)}) AS l USING (phrase)`,
      params,
    );
    return { handlers: row?.handlers ?? [], unhandled: row?.unhandled ?? [] };
  }
}
