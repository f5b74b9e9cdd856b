import { Injectable } from '@nestjs/common';
import { ClickHouseService, type QueryParams } from '@app/clickhouse';
import type { AnalyticsScope } from '../analytics/analytics-scope';
import { filterSql, handlersSql, hourRangeSql, newestIso, termRowsSql } from '../analytics/analytics-sql';
import { previousWindow } from '../analytics/window';

/** What a list request asks the rollups for. */
export interface TermsRequest {
  scope: AnalyticsScope;
  /** hits=false: zero-result searches, each term with its handlers. */
  zeroHits: boolean;
  /** compare=previous: also count the window of the same length just before. */
  compare: boolean;
  sort: 'count' | 'rising';
  /** Only handled (true) or unhandled (false) terms; all when absent (zero-result lists only). */
  handled?: boolean;
  start: number;
  limit: number;
}

export interface TermRow {
  phrase: string;
  count: number;
  /** With compare. */
  previous_count?: number;
  /** With zeroHits: the entities that handle the phrase, as sorted [type, id]. */
  handlers?: Array<[string, string]>;
}

type RawRow = {
  phrase: string;
  count: string | number;
  previous_count: string | number;
  handlers?: Array<[string, string]>;
  total: string | number;
};

/**
 * Every ClickHouse query of GET /search-terms. Counts come from the rollups, never from raw events: whole UTC days
 * from the daily rollup, the window's edge hours from the hourly one (windowParts), for the window and, with
 * compare, for the one before it.
 */
@Injectable()
export class SearchTermsRepository {
  constructor(private readonly ch: ClickHouseService) {}

  async terms(r: TermsRequest): Promise<{ rows: TermRow[]; total: number }> {
    const params: QueryParams = { start: r.start, limit: r.limit };
    const terms = this.termsSql(r, params);
    const rows = await this.ch.query<RawRow>(`${terms} LIMIT {limit:UInt32} OFFSET {start:UInt32}`, params);
    if (rows.length > 0 || r.start === 0) return { rows: rows.map((row) => this.row(row, r)), total: Number(rows[0]?.total ?? 0) };
    // A page past the end has no row to carry the total.
    const [{ total }] = await this.ch.query<{ total: string | number }>(`SELECT count() AS total FROM (${terms})`, params);
    return { rows: [], total: Number(total) };
  }

  /** The same rows, read one at a time (CSV export), each with the total. */
  async *streamTerms(r: TermsRequest): AsyncGenerator<{ row: TermRow; total: number }> {
    const params: QueryParams = { start: r.start, limit: r.limit };
    const sql = `${this.termsSql(r, params)} LIMIT {limit:UInt32} OFFSET {start:UInt32}`;
    for await (const row of this.ch.stream<RawRow>(sql, params)) yield { row: this.row(row, r), total: Number(row.total) };
  }

  /** The time of the newest event the list counts in its window, from the hourly totals. */
  async newestEvent(scope: AnalyticsScope, zeroHits: boolean): Promise<string | undefined> {
    const params: QueryParams = {};
    const [row] = await this.ch.query<{ newest: string | null }>(
      `SELECT toUnixTimestamp64Milli(maxOrNull(last_ts)) AS newest FROM ${this.ch.table('search_totals_hourly')}
       WHERE ${filterSql(scope, params)} AND zero_hits = ${zeroHits ? 1 : 0} AND ${hourRangeSql(scope.window, 'w', params)}`,
      params,
    );
    return newestIso([row?.newest]);
  }

  private termsSql(r: TermsRequest, params: QueryParams): string {
    const { scope } = r;
    const sources = [termRowsSql(this.ch, scope, scope.window, 1, params, r.zeroHits)];
    if (r.compare) sources.push(termRowsSql(this.ch, scope, previousWindow(scope.window), 0, params, r.zeroHits));
    const handled = r.handled === undefined ? '' : `WHERE ${r.handled ? 'notEmpty' : 'empty'}(handlers)`;
    const order = r.sort === 'rising' ? 'toInt64(count) - toInt64(previous_count) DESC, phrase ASC' : 'count DESC, phrase ASC';
    return `SELECT phrase, count, previous_count ${r.zeroHits ? ', handlers' : ''}, count() OVER () AS total
      FROM (
        SELECT phrase, sumIf(searches, cur = 1) AS count, sumIf(searches, cur = 0) AS previous_count
        FROM (${sources.join(' UNION ALL ')}) GROUP BY phrase HAVING count > 0
      ) AS terms
      ${r.zeroHits ? `LEFT JOIN (${handlersSql(this.ch, scope, params)}) AS h USING (phrase)` : ''}
      ${handled}
      ORDER BY ${order}`;
  }

  private row(raw: RawRow, r: TermsRequest): TermRow {
    return {
      phrase: raw.phrase,
      count: Number(raw.count),
      previous_count: r.compare ? Number(raw.previous_count) : undefined,
      handlers: r.zeroHits ? (raw.handlers ?? []) : undefined,
    };
  }
}
