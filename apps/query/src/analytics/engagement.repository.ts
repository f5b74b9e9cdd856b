import { Injectable } from '@nestjs/common';
import { ClickHouseService, ENGAGEMENT_LAYOUT, inListParamGroups, type QueryParams } from '@app/clickhouse';
import { AppConfig } from '@app/config';
import { NO_SEARCH_ID } from '@app/contracts';
import type { AnalyticsFilter } from './analytics-scope';
import { filterSql } from './analytics-sql';
import { countsOf, LAST_POSITION, type EngagementCounts, type EngagementRaw } from './engagement';
import { EngagementRawRepository, rangeSql, tenantSql } from './engagement-raw.repository';
import { EngagementSpans, spanPlan, type SpanPlan } from './engagement-spans';
import { aheadSql, bindNew, versionPlan, type VersionPlan } from './version-plan';
import type { HourRange } from './window';

/** The columns of a group's counts before they are summed over parts (raw hours and hours computed ahead). */
const PART_COLUMNS =
  'hour, phrase, language, bot, g_tracked, g_clicked, g_clicks, g_pos, g_converted, g_cur, g_val, g_carted, g_purchased, g_pcur, g_pval';

/** How many objects GET /search-terms/{id} lists. */
export const MAX_OBJECTS = 10;

export interface ObjectCounts {
  object_id: string;
  clicks: number;
  conversions: number;
}

/** The columns of a phrase row computed ahead (engagement_hourly, kind phrase; engagement_phrases_hourly). */
export const PHRASE_ROW_COLUMNS =
  'customer, instance, hour, phrase, language, bot, version, tracked, clicked, clicks, pos_sum, converted, rev_cur, rev_val, carted, ' +
  'purchased, pur_cur, pur_val';

/** The count columns of a group (EngagementRaw), summed over the parts. */
const GROUP_COLUMNS = `sum(g_tracked) AS tracked, sum(g_clicked) AS clicked, sum(g_clicks) AS clicks_n, sum(g_pos) AS pos_sum,
  sum(g_converted) AS converted, sumMap(g_cur, g_val) AS rev, rev.1 AS rev_cur, arrayMap(x -> toString(x), rev.2) AS rev_val,
  sum(g_carted) AS carted, sum(g_purchased) AS purchased, sumMap(g_pcur, g_pval) AS pur, pur.1 AS pur_cur,
  arrayMap(x -> toString(x), pur.2) AS pur_val`;

/**
 * How a window's engagement figures are read: the hours computed ahead (engagement_hourly) and the rest raw, and for
 * every phrase's figures maybe a span (EngagementSpans).
 */
export type EngagementPlan = VersionPlan | SpanPlan;

/** A part's counts as signed integers (a span's hours are subtracted), negated with `sign` '-'. */
function signedPart(sql: string, sign: '' | '-'): string {
  const n = (column: string) => `${sign}toInt64(${column}) AS ${column}`;
  const amounts = (column: string) => (sign ? `arrayMap(x -> -x, ${column}) AS ${column}` : column);
  return `SELECT hour, phrase, language, bot, ${n('g_tracked')}, ${n('g_clicked')}, ${n('g_clicks')}, ${n('g_pos')}, ${n('g_converted')},
      g_cur, ${amounts('g_val')}, ${n('g_carted')}, ${n('g_purchased')}, g_pcur, ${amounts('g_pval')}
    FROM (${sql})`;
}

/** Computed ahead rows as a part's columns. */
const AHEAD_COLUMNS = `hour, phrase, language, bot, tracked AS g_tracked, clicked AS g_clicked, clicks AS g_clicks,
  pos_sum AS g_pos, converted AS g_converted, rev_cur AS g_cur, rev_val AS g_val, carted AS g_carted, purchased AS g_purchased,
  pur_cur AS g_pcur, pur_val AS g_pval`;

/** The columns of EngagementRaw, for a caller that joins groupSql. */
export const ENGAGEMENT_COLUMNS = 'tracked, clicked, clicks_n, pos_sum, converted, rev_cur, rev_val, carted, purchased, pur_cur, pur_val';

/**
 * Every ClickHouse query of the engagement figures (docs/architecture.md, "Clicks and conversions"), shared by GET
 * /search-terms, /search-stats and /search-terms/{id}: a window's hours read as computed ahead where they are (plan),
 * the others computed exactly from the raw tables (EngagementRawRepository), and the unattributed clicks and conversions.
 */
@Injectable()
export class EngagementRepository {
  /** Whether hours are computed ahead (ENGAGEMENT_REFRESH_MS > 0) and read from engagement_hourly. */
  private readonly ahead: boolean;
  /** Whether every phrase's figures read a span whenever one holds an hour of the window (tests), not only when it saves. */
  spanAlways = false;

  constructor(
    private readonly ch: ClickHouseService,
    private readonly raw: EngagementRawRepository,
    private readonly spans: EngagementSpans,
    config: AppConfig,
  ) {
    this.ahead = config.engagementRefreshMs > 0;
  }

  /**
   * Which hours of `range` are read as computed ahead, at which version, and which from the raw tables (all of them
   * when ENGAGEMENT_REFRESH_MS is 0); versions of this release's layout only.
   */
  plan(f: AnalyticsFilter, range: HourRange): Promise<EngagementPlan> {
    if (!this.ahead) {
      return Promise.resolve({ ahead: [], raw: [range] });
    }
    return versionPlan(this.ch, 'engagement_versions', f, range, { sql: 'layout = {layout:UInt8}', params: { layout: ENGAGEMENT_LAYOUT } });
  }

  /**
   * The plan of every phrase's figures in `range` (groupSql with key `phrase`, without `phrases`): with the instance's
   * newest span where it saves reading hours (spanPlan).
   */
  async phrasesPlan(f: AnalyticsFilter, range: HourRange): Promise<EngagementPlan> {
    if (!this.ahead) {
      return this.plan(f, range);
    }
    const span = await this.spans.newest(f);
    const both = span ? { from: Math.min(range.from, span.from), to: Math.max(range.to, span.to) } : range;
    return spanPlan(range, span, await this.plan(f, both), this.spanAlways);
  }

  /**
   * `<key>, tracked, clicked, clicks_n, pos_sum, converted, rev_cur, rev_val` (EngagementRaw) per value of `key`, an
   * expression over `hour` and `phrase` of the tracked searches (`totals`: over `hour` alone), read as `plan` says;
   * with `phrases`, only the searches of the phrases of the `phrases` parameter.
   */
  groupSql(
    f: AnalyticsFilter,
    plan: EngagementPlan,
    key: string,
    params: QueryParams,
    options: { phrases?: boolean; totals?: boolean } = {},
  ): string {
    let parts = plan.raw.map((r, i) => `SELECT ${PART_COLUMNS} FROM (${this.raw.rawGroupsSql(f, r, params, options.phrases, String(i))})`);
    const table = this.ch.table(options.phrases ? 'engagement_phrases_hourly' : 'engagement_hourly');
    const rows = options.phrases ? 'AND phrase IN {phrases:Array(String)}' : `AND kind = '${options.totals ? 'total' : 'phrase'}'`;
    const ahead = (p: VersionPlan, name?: string) =>
      `SELECT ${AHEAD_COLUMNS} FROM ${table} WHERE ${filterSql(f, params)} ${rows} AND ${aheadSql(p, params, name)}`;
    if (plan.ahead.length > 0) {
      parts.push(ahead(plan));
    }
    if ('span' in plan) {
      // The span's rows (a key over `hour` would not hold: their hour is 0), less the span's hours outside the window or
      // computed again since, at the span's versions.
      bindNew(params, { span: plan.span.version });
      parts = parts.map((part) => signedPart(part, ''));
      parts.push(
        signedPart(
          `SELECT toDateTime(0, 'UTC') AS hour, ${AHEAD_COLUMNS.slice('hour, '.length)} FROM ${this.ch.table('engagement_phrase_spans')}
           WHERE ${filterSql(f, params)} ${options.phrases ? rows : ''} AND span = fromUnixTimestamp64Micro({span:Int64}, 'UTC')`,
          '',
        ),
      );
      if (plan.span.minus.length > 0) {
        parts.push(signedPart(ahead({ ahead: plan.span.minus, raw: [] }, 'minus'), '-'));
      }
    }
    return `SELECT ${key}, ${GROUP_COLUMNS} FROM (${parts.join(' UNION ALL ')}) GROUP BY ${key}`;
  }

  /** The counts per hour (of the searches' canonical copies) of `range`; hours without tracked searches left out. */
  async hours(f: AnalyticsFilter, range: HourRange): Promise<Array<{ hour: number; counts: EngagementCounts }>> {
    const params: QueryParams = {};
    const plan = await this.plan(f, range);
    const rows = await this.ch.query<EngagementRaw & { hour_ms: string | number }>(
      this.groupSql(f, plan, 'toUnixTimestamp(hour) * 1000 AS hour_ms', params, { totals: true }),
      params,
    );
    return rows.map((r) => ({ hour: Number(r.hour_ms), counts: countsOf(r) }));
  }

  /**
   * The counts of the tracked searches of each of `phrases` in `range` (a phrase without any left out): a page of
   * the list reads only its own phrases' rows.
   */
  async phrases(f: AnalyticsFilter, range: HourRange, phrases: string[]): Promise<Map<string, EngagementCounts>> {
    const counts = new Map<string, EngagementCounts>();
    if (phrases.length === 0) {
      return counts;
    }
    const plan = await this.plan(f, range);
    // In groups whose list fits a server's URL (a page may hold 1,000 phrases of 500 characters).
    for (const group of inListParamGroups(phrases, (p) => p)) {
      const params: QueryParams = { phrases: group };
      const sql = this.groupSql(f, plan, 'phrase', params, { phrases: true });
      for (const row of await this.ch.query<EngagementRaw & { phrase: string }>(sql, params)) {
        counts.set(row.phrase, countsOf(row));
      }
    }
    return counts;
  }

  /** The rows of a table computed ahead whose hour and version `plan` reads (aheadSql). */
  aheadSql(plan: EngagementPlan, params: QueryParams): string {
    return aheadSql(plan, params);
  }

  /**
   * One phrase's engagement in `range`: its counts, its clicks per position (positions from LAST_POSITION on as
   * LAST_POSITION) and its most clicked objects (at least one click; ties by object id) with their conversions: the
   * raw ranges of the plan computed (rawObjectsSql), its hours computed ahead read from engagement_objects_hourly.
   */
  async term(
    f: AnalyticsFilter,
    range: HourRange,
    phrase: string,
  ): Promise<{ counts?: EngagementCounts; positions: Map<number, number>; objects: ObjectCounts[] }> {
    const plan = await this.plan(f, range);
    const countsParams: QueryParams = { phrases: [phrase] };
    const [row] = await this.ch.query<EngagementRaw>(this.groupSql(f, plan, 'phrase', countsParams, { phrases: true }), countsParams);
    const params: QueryParams = { phrases: [phrase], limit: LAST_POSITION + MAX_OBJECTS };
    const columns = 'toString(kind) AS kind, position, object_id, clicks, conversions';
    const parts = plan.raw.map((r, i) => `SELECT ${columns} FROM (${this.raw.rawObjectsSql(f, r, params, true, String(i))})`);
    if (plan.ahead.length > 0) {
      parts.push(`SELECT ${columns} FROM ${this.ch.table('engagement_objects_hourly')}
        WHERE ${filterSql(f, params)} AND phrase IN {phrases:Array(String)} AND ${this.aheadSql(plan, params)}`);
    }
    // Positions first (at most LAST_POSITION rows), then the clicked objects in the answer's order.
    const rows = await this.ch.query<{ kind: string; position: number; object_id: string; clicks_n: string; conversions_n: string }>(
      `SELECT kind, position, object_id, sum(clicks) AS clicks_n, sum(conversions) AS conversions_n
       FROM (${parts.join(' UNION ALL ')})
       GROUP BY kind, position, object_id HAVING clicks_n > 0
       ORDER BY kind = 'object', clicks_n DESC, object_id ASC LIMIT {limit:UInt32}`,
      params,
    );
    const of = (kind: string) => rows.filter((r) => r.kind === kind);
    return {
      counts: row ? countsOf(row) : undefined,
      positions: new Map(of('position').map((r) => [Number(r.position), Number(r.clicks_n)])),
      objects: of('object')
        .slice(0, MAX_OBJECTS)
        .map((r) => ({ object_id: r.object_id, clicks: Number(r.clicks_n), conversions: Number(r.conversions_n) })),
    };
  }

  /**
   * Clicks per position (from LAST_POSITION on as LAST_POSITION) of the tracked searches of `range`, per phrase of
   * `phrases` (a list's page), or of all of them under '' (the totals): the raw ranges of the plan computed
   * (rawObjectsSql), its hours computed ahead read from engagement_objects_hourly, as a term's detail reads its own.
   */
  async positions(f: AnalyticsFilter, range: HourRange, phrases?: string[]): Promise<Map<string, Map<number, number>>> {
    const found = new Map<string, Map<number, number>>();
    const plan = await this.plan(f, range);
    for (const group of phrases === undefined ? [undefined] : inListParamGroups(phrases, (p) => p)) {
      const params: QueryParams = group === undefined ? {} : { phrases: group };
      const key = group === undefined ? "''" : 'phrase';
      const columns = `${key} AS p, position, clicks`;
      const parts = plan.raw.map(
        (r, i) =>
          `SELECT ${columns} FROM (${this.raw.rawObjectsSql(f, r, params, group !== undefined, String(i))}) WHERE kind = 'position'`,
      );
      if (plan.ahead.length > 0) {
        parts.push(`SELECT ${columns} FROM ${this.ch.table('engagement_objects_hourly')}
          WHERE ${filterSql(f, params)} AND kind = 'position' ${group === undefined ? '' : 'AND phrase IN {phrases:Array(String)}'}
            AND ${this.aheadSql(plan, params)}`);
      }
      const rows = await this.ch.query<{ p: string; position: number; clicks_n: string | number }>(
        `SELECT p, position, sum(clicks) AS clicks_n FROM (${parts.join(' UNION ALL ')}) GROUP BY p, position HAVING clicks_n > 0`,
        params,
      );
      for (const r of rows) {
        const of = found.get(r.p) ?? new Map<number, number>();
        of.set(Number(r.position), Number(r.clicks_n));
        found.set(r.p, of);
      }
    }
    return found;
  }

  /**
   * Clicks and conversions per hour of their own time in `range` whose search is none or not known (no id the
   * clients sent), whatever the language and bot filters (an interaction carries neither).
   */
  async unattributed(f: AnalyticsFilter, range: HourRange): Promise<Array<{ hour: number; clicks: number; conversions: number }>> {
    const params: QueryParams = { no_search: NO_SEARCH_ID };
    const inRange = rangeSql('ts', range, 'i', params);
    const tenant = tenantSql(params, f);
    const unknown = `${inRange} AND (search_id = toUUID({no_search:String}) OR search_id NOT IN (
        SELECT search_id FROM ${this.ch.table('search_ids')}
        WHERE ${tenant} AND search_id IN (SELECT search_id FROM ${this.ch.table('interactions')} WHERE ${tenant} AND ${inRange})
      ))`;
    const rows = await this.ch.query<{ hour_ms: string | number; clicks_n: string | number; conversions_n: string | number }>(
      `SELECT toUnixTimestamp(toStartOfHour(ts)) * 1000 AS hour_ms, countIf(type = 'click') AS clicks_n,
         countIf(type = 'conversion') AS conversions_n
       FROM (${this.raw.distinctSql(f, unknown, params)}) GROUP BY hour_ms`,
      params,
    );
    return rows.map((r) => ({ hour: Number(r.hour_ms), clicks: Number(r.clicks_n), conversions: Number(r.conversions_n) }));
  }
}
