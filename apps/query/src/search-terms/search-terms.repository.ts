import { Injectable } from '@nestjs/common';
import type { Readable } from 'node:stream';
import { ClickHouseService, inListParamGroups, type QueryParams } from '@app/clickhouse';
import type { AnalyticsScope } from '../analytics/analytics-scope';
import { filterSql, handlersSql, hourRangeSql, termRowsSql, unhandledSql, zeroResultLanguagesSql } from '../analytics/analytics-sql';
import type { TagsFilter } from '../analytics/tags-param';
import { csvLineSql } from './search-terms.csv';
import { hasLastHits, taggedTermRowsSql, termDimensionPlans, termExtrasSql, type TermDimensionPlans } from './term-dimensions-sql';
import { DimensionRepository } from '../analytics/dimension.repository';
import { termId } from '../analytics/term-id';
import { countsOf, emptyCounts, type EngagementCounts, type EngagementRaw } from '../analytics/engagement';
import { ENGAGEMENT_COLUMNS, EngagementRepository, type EngagementPlan } from '../analytics/engagement.repository';
import { newestIso, type HourRange } from '../analytics/window';
import { byEngagement, type TermsSort } from './search-terms.query';

/** What a list request asks the rollups for. */
export interface TermsRequest {
  scope: AnalyticsScope;
  /** hits=false: zero-result searches, each term with its handlers. */
  zeroHits: boolean;
  /** hits=all: every search, whatever its hits. */
  allHits?: true;
  /** order=asc. */
  ascending?: true;
  /** Only the searches carrying these tags (counted from the phrase dimension rows). */
  tags?: TagsFilter;
  /** filters=true (with zeroHits): each term with its zero-result searches that had a filter. */
  withFilters?: true;
  /** compare=previous (or sort=rising): also count this window, the one of the same length just before. */
  previous?: HourRange;
  sort: TermsSort;
  /** engagement=true: each term with the engagement counts of its tracked searches in the window. */
  engagement?: true;
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
  /**
   * With zeroHits and no language filter: the languages of its zero-result searches no entity handles, sorted
   * (in SQL only for terms with a handler; those without get theirs from languagesOfUnhandled).
   */
  unhandled_languages?: string[];
  /** With engagement. */
  engagement?: EngagementCounts;
  /** With hits=all or engagement (hasLastHits). */
  last_hits?: number;
  /** With withFilters. */
  with_filters?: number;
  /** With engagement (JSON only): clicks per position. */
  positions?: Map<number, number>;
}

type RawRow = Partial<EngagementRaw> & {
  phrase: string;
  last_hits?: string | number;
  with_filters?: string | number;
  count: string | number;
  previous_count: string | number;
  handlers?: Array<[string, string]>;
  unhandled_languages?: string[];
  total: string | number;
};

/**
 * Every ClickHouse query of GET /search-terms. Counts come from the rollups, never from raw events: whole weeks
 * from the weekly rollup (without a language filter), whole UTC days from the daily one, plus and minus edge hours
 * from the hourly one (windowParts, termRowsSql), for the window and, with compare, for the one before it.
 */
@Injectable()
export class SearchTermsRepository {
  constructor(
    private readonly ch: ClickHouseService,
    private readonly engagement: EngagementRepository,
    private readonly dimensions: DimensionRepository,
  ) {}

  /** `now`: the request's one time, at which its window was resolved (see termRowsSql). */
  async terms(r: TermsRequest, now: number): Promise<{ rows: TermRow[]; total: number }> {
    const params: QueryParams = { start: r.start, limit: r.limit };
    // Unless the order needs them, the engagement figures are read for the page's phrases only, after the page: at
    // 100M events, those of every phrase of 30 days are millions of rows to add up.
    const pageFirst = r.engagement && !byEngagement(r.sort);
    const [plan, dims] = await Promise.all([pageFirst ? undefined : this.plan(r), termDimensionPlans(this.dimensions, r)]);
    const rows = await this.ch.query<RawRow>(
      `${this.termsSql(r, now, params, { plan, dims })} LIMIT {limit:UInt32} OFFSET {start:UInt32}`,
      params,
    );
    // A page past the end has no row to carry the total.
    const total = rows.length > 0 || r.start === 0 ? Number(rows[0]?.total ?? 0) : await this.total(r, now, dims);
    const phrases = [...new Set(rows.map((row) => row.phrase))];
    const [unhandled, engagement, extras, positions] = await Promise.all([
      r.zeroHits && !r.scope.language ? this.languagesOfUnhandled(r, rows, now) : undefined,
      pageFirst ? this.engagement.phrases(r.scope, r.scope.window, phrases) : undefined,
      this.extras(r, phrases, dims),
      r.engagement && phrases.length > 0 ? this.engagement.positions(r.scope, r.scope.window, phrases) : undefined,
    ]);
    return {
      rows: rows.map((row) => ({
        ...this.row({ ...row, ...extras.get(row.phrase) }, r, unhandled, engagement),
        ...(positions ? { positions: positions.get(row.phrase) ?? new Map<number, number>() } : {}),
      })),
      total,
    };
  }

  /** last_hits and with_filters of the page's phrases (those the request asks for), read after the page. */
  private async extras(
    r: TermsRequest,
    phrases: string[],
    dims?: TermDimensionPlans,
  ): Promise<Map<string, Pick<RawRow, 'last_hits' | 'with_filters'>>> {
    const found = new Map<string, Pick<RawRow, 'last_hits' | 'with_filters'>>();
    // Only a request with last_hits or with_filters has the extras' plan (termDimensionPlans).
    if (phrases.length === 0 || !dims?.extras) {
      return found;
    }
    // By their term ids, in groups whose list fits a server's URL.
    const ids = phrases.map((phrase) => termId(r.scope.customer, r.scope.instance, phrase));
    for (const group of inListParamGroups(ids, (id) => id)) {
      const params: QueryParams = {};
      const rows = await this.ch.query<RawRow>(termExtrasSql(this.dimensions, r, dims.extras, params, group), params);
      rows.forEach((row) => found.set(row.phrase, { last_hits: row.last_hits, with_filters: row.with_filters }));
    }
    return found;
  }

  /**
   * The zero-result languages of the page's terms that no entity handles at all (all their languages are
   * unhandled): the list's query reads languages only for terms with a handler, as only those need them to decide.
   */
  private async languagesOfUnhandled(r: TermsRequest, rows: RawRow[], now: number): Promise<Map<string, string[]>> {
    const phrases = rows.filter((row) => (row.handlers ?? []).length === 0).map((row) => row.phrase);
    if (phrases.length === 0) {
      return new Map();
    }
    const languages = new Map<string, string[]>();
    // In groups whose list fits a server's URL (a page may hold 1,000 phrases of 500 characters).
    for (const group of inListParamGroups(phrases, (p) => p)) {
      const params: QueryParams = { phrases: group };
      const found = await this.ch.query<{ phrase: string; languages: string[] }>(
        zeroResultLanguagesSql(this.ch, r.scope, r.scope.window, 'phrase IN {phrases:Array(String)}', params, now),
        params,
      );
      found.forEach((row) => languages.set(row.phrase, row.languages));
    }
    return languages;
  }

  /**
   * The number of terms of the list (after the handled filter): neither the engagement figures nor the order change
   * it, so it reads neither (the order by the figures would need them).
   */
  async total(r: TermsRequest, now: number, dims?: TermDimensionPlans): Promise<number> {
    const params: QueryParams = {};
    dims ??= r.tags ? await termDimensionPlans(this.dimensions, r) : undefined;
    const [{ total }] = await this.ch.query<{ total: string | number }>(
      `SELECT count() AS total FROM (${this.termsSql({ ...r, sort: 'count' }, now, params, { dims })})`,
      params,
    );
    return Number(total);
  }

  /**
   * The same rows as CSV lines (docs/architecture.md), written by ClickHouse and passed on as bytes: no object
   * per row in this process, so the export's memory does not grow with its rows; each line as csvLineSql writes it.
   */
  async csvLines(r: TermsRequest, now: number): Promise<Readable> {
    const params: QueryParams = { start: r.start, limit: r.limit };
    const [plan, dims] = await Promise.all([this.plan(r), termDimensionPlans(this.dimensions, r)]);
    const line = csvLineSql(r, handledSql(r));
    const lines = this.termsSql(r, now, params, { plan, dims, csv: true });
    return this.ch.rawStream(`SELECT ${line} FROM (${lines}) LIMIT {limit:UInt32} OFFSET {start:UInt32} FORMAT TSVRaw`, params);
  }

  /**
   * The time of the newest event the list counts in its window, from the hourly totals; none with tags (the rows
   * per tag keep no time).
   */
  async newestEvent(r: TermsRequest): Promise<string | undefined> {
    if (r.tags) {
      return undefined;
    }
    const params: QueryParams = {};
    const kind = r.allHits ? '' : `AND zero_hits = ${r.zeroHits ? 1 : 0}`;
    const [row] = await this.ch.query<{ newest: string | null }>(
      `SELECT toUnixTimestamp64Milli(maxOrNull(last_ts)) AS newest FROM ${this.ch.table('search_totals_hourly')}
       WHERE ${filterSql(r.scope, params)} ${kind} AND ${hourRangeSql(r.scope.window, 'w', params)}`,
      params,
    );
    return newestIso([row?.newest]);
  }

  /**
   * How every phrase's engagement figures of the window are read (EngagementRepository.phrasesPlan), when the
   * request asks for them.
   */
  private plan(r: TermsRequest): Promise<EngagementPlan | undefined> {
    return r.engagement ? this.engagement.phrasesPlan(r.scope, r.scope.window) : Promise.resolve(undefined);
  }

  /**
   * `plan`: the engagement figures' (joined to every row); `dims`: the dimension rows' (termDimensionPlans); `csv`:
   * the extras (last_hits, with_filters) joined for every row, as the CSV lines need them.
   */
  private termsSql(
    r: TermsRequest,
    now: number,
    params: QueryParams,
    { plan, dims, csv = false }: { plan?: EngagementPlan; dims?: TermDimensionPlans; csv?: boolean },
  ): string {
    const { scope } = r;
    const options = { zeroHits: r.allHits ? undefined : r.zeroHits, now };
    const rows = (window: HourRange, tag: 0 | 1) =>
      r.tags && dims?.tagged
        ? taggedTermRowsSql(this.dimensions, r, window, (tag === 1 ? dims.tagged : dims.taggedPrevious) ?? dims.tagged, tag, params)
        : termRowsSql(this.ch, scope, window, tag, params, options);
    const sources = [rows(scope.window, 1)];
    if (r.previous) {
      sources.push(rows(r.previous, 0));
    }
    // Without compare, one sum (two sumIf over every row cost a fifth of since=30d at 10M events).
    const counts = r.previous
      ? 'sumIf(signed, cur = 1) AS count, sumIf(signed, cur = 0) AS previous_count'
      : 'sum(signed) AS count, 0 AS previous_count';
    const handled = r.handled === undefined ? '' : `WHERE ${r.handled ? '' : 'NOT'} (${handledSql(r)})`;
    const perLanguage = r.zeroHits && !scope.language;
    let languages = '';
    if (perLanguage) {
      // Only a term with a handler needs its languages to decide whether it is handled (languagesOfUnhandled).
      const withHandlers = `phrase IN (SELECT phrase FROM (${handlersSql(this.ch, scope, params)}))`;
      languages = `LEFT JOIN (${zeroResultLanguagesSql(this.ch, scope, scope.window, withHandlers, params, now)}) AS l USING (phrase)`;
    }
    const direction = r.ascending ? 'ASC' : 'DESC';
    // A rate or mean with a zero denominator (null in the answer) last in both orders.
    const ratio = (part: string, whole: string) => `${whole} = 0, if(${whole} = 0, 0, ${part} / ${whole}) ${direction}, phrase ASC`;
    const order = {
      count: `count ${direction}, phrase ASC`,
      rising: 'toInt64(count) - toInt64(previous_count) DESC, phrase ASC',
      no_clicks: `toInt64(tracked) - toInt64(clicked) ${direction}, phrase ASC`,
      click_through_rate: ratio('clicked', 'tracked'),
      conversion_rate: ratio('converted', 'tracked'),
      average_click_position: ratio('pos_sum', 'clicks_n'),
    }[r.sort];
    const engagement = plan ? `LEFT JOIN (${this.engagement.groupSql(scope, plan, 'phrase', params)}) AS e USING (phrase)` : '';
    const extras = csv && dims?.extras ? `LEFT JOIN (${termExtrasSql(this.dimensions, r, dims.extras, params)}) AS x USING (phrase)` : '';
    return `SELECT phrase, count, previous_count ${r.zeroHits ? ', handlers' : ''}
        ${perLanguage ? `, ${unhandledSql('languages', 'covered')} AS unhandled_languages` : ''}, count() OVER () AS total
        ${plan ? `, ${ENGAGEMENT_COLUMNS}` : ''} ${extras ? ', last_hits, with_filters' : ''}
      FROM (
        SELECT phrase, ${counts} FROM (${sources.join(' UNION ALL ')}) GROUP BY phrase HAVING count > 0
      ) AS terms
      ${r.zeroHits ? `LEFT JOIN (${handlersSql(this.ch, scope, params)}) AS h USING (phrase)` : ''}
      ${languages}
      ${engagement}
      ${extras}
      ${handled}
      ORDER BY ${order}`;
  }

  /** `engagement`: the figures per phrase, when they were read after the page. */
  private row(raw: RawRow, r: TermsRequest, unhandled?: Map<string, string[]>, engagement?: Map<string, EngagementCounts>): TermRow {
    return {
      phrase: raw.phrase,
      count: Number(raw.count),
      previous_count: r.previous ? Number(raw.previous_count) : undefined,
      handlers: r.zeroHits ? (raw.handlers ?? []) : undefined,
      unhandled_languages: unhandled && ((raw.handlers ?? []).length === 0 ? (unhandled.get(raw.phrase) ?? []) : raw.unhandled_languages),
      engagement: engagement ? (engagement.get(raw.phrase) ?? emptyCounts()) : r.engagement ? countsOf(raw as EngagementRaw) : undefined,
      last_hits: hasLastHits(r) ? Number(raw.last_hits ?? 0) : undefined,
      with_filters: r.withFilters ? Number(raw.with_filters ?? 0) : undefined,
    };
  }
}

/**
 * Whether a row of a zero-result list is handled: some entity handles it and, without a language filter, every
 * language it found nothing in (unhandled_languages empty).
 */
function handledSql(r: TermsRequest): string {
  return r.scope.language ? 'notEmpty(handlers)' : 'notEmpty(handlers) AND empty(unhandled_languages)';
}
