import type { ClickHouseService, QueryParams } from '@app/clickhouse';
import type { AnalyticsFilter } from './analytics-scope';
import type { HourRange } from './window';
import { windowParts, type DayRange } from './window-parts';

const seconds = (ms: number) => Math.floor(ms / 1000);

/** Conditions of the filter on a rollup (columns customer, instance, bot, language); adds its parameters to `params`. */
export function filterSql(f: AnalyticsFilter, params: QueryParams): string {
  Object.assign(params, { customer: f.customer, instance: f.instance, bots: f.includeBots ? [0, 1] : [0], language: f.language ?? '' });
  return `customer = {customer:String} AND instance = {instance:String} AND bot IN {bots:Array(UInt8)}
    ${f.language ? 'AND language = {language:String}' : ''}`;
}

/**
 * Sets query parameters that must not already hold another value: two parts of one query that name a parameter
 * alike but mean different values would silently read the last one's (a programming error, found by the tests).
 */
function bind(params: QueryParams, values: Record<string, string | number>): void {
  for (const [name, value] of Object.entries(values)) {
    if (params[name] !== undefined && params[name] !== value) {
      throw new Error(`query parameter ${name} bound twice: ${JSON.stringify(params[name])} and ${value}`);
    }
    params[name] = value;
  }
}

/** `hour` within [from, to), with parameters named after `name`. */
export function hourRangeSql(r: HourRange, name: string, params: QueryParams): string {
  bind(params, { [`${name}_from`]: seconds(r.from), [`${name}_to`]: seconds(r.to) });
  return `(hour >= toDateTime({${name}_from:UInt32}, 'UTC') AND hour < toDateTime({${name}_to:UInt32}, 'UTC'))`;
}

/**
 * The rollups of phrase counts a filter reads: without a language filter those without the language dimension
 * (0011, a phrase has one row per hour or day instead of one per language), with the weekly one for long windows
 * (0021); else those with it.
 */
function termTables(ch: ClickHouseService, f: AnalyticsFilter, byLanguage: boolean): { hourly: string; daily: string; weekly?: string } {
  return f.language || byLanguage
    ? { hourly: ch.table('search_terms_hourly'), daily: ch.table('search_terms_daily') }
    : { hourly: ch.table('search_phrases_hourly'), daily: ch.table('search_phrases_daily'), weekly: ch.table('search_phrases_weekly') };
}

export interface TermRowsOptions {
  /** One kind of search (zero hits or not); both when absent. */
  zeroHits?: boolean;
  /**
   * The time of the request: weighs how the window's edge days are read (windowParts), never what is counted; only
   * used where hours may be subtracted.
   */
  now?: number;
  /**
   * false: never subtract hours (edge days as their hours inside the window), so that every phrase of the rows was
   * searched in the window, for a caller that counts phrases without summing; default true.
   */
  subtract?: boolean;
  /** Rows per phrase and language (`phrase, language, signed, cur`), whatever the filter. */
  byLanguage?: boolean;
  /** Only the rows of the phrases where this condition on `phrase` holds (read first, as a PREWHERE). */
  phrases?: string;
}

/**
 * `phrase, signed, <tag> AS cur` of every phrase rollup row of the window, `signed` the row's searches as Int64:
 * whole weeks from the weekly rollup (without a language), whole UTC days from the daily one, plus and minus hours
 * from the hourly one (windowParts). A phrase's sum is
 * its count in the window; where the window subtracts hours, that sum may be 0 (a phrase searched only in subtracted
 * hours), so a caller that counts phrases must keep those with a positive sum.
 */
export function termRowsSql(
  ch: ClickHouseService,
  f: AnalyticsFilter,
  window: HourRange,
  tag: 0 | 1,
  params: QueryParams,
  options: TermRowsOptions,
): string {
  const tables = termTables(ch, f, options.byLanguage ?? false);
  const { weeks, days, hours, minus } = windowParts(window, options.now, options.subtract ?? true, tables.weekly !== undefined);
  const columns = options.byLanguage ? 'phrase, language' : 'phrase';
  const kind = options.zeroHits === undefined ? '' : `AND zero_hits = ${options.zeroHits ? 1 : 0}`;
  const where = `${filterSql(f, params)} ${kind} ${options.phrases ? `AND ${options.phrases}` : ''}`;
  // Parameter names: one query may read a window from both sets of rollups (with and without the language), whose
  // parts differ (weeks or not).
  const prefix = `w${tag}${tables.weekly ? '' : 'l'}`;
  // One read of the hourly rollup for the hours added and those subtracted (each source of rows costs ~2 ms).
  const inHours = (ranges: HourRange[], name: string) =>
    ranges.map((h, i) => hourRangeSql(h, `${prefix}_${name}${i}`, params)).join(' OR ');
  const parts: string[] = [];
  if (hours.length > 0 || minus.length > 0) {
    const subtracted = minus.length > 0 ? inHours(minus, 'm') : undefined;
    const signed = subtracted ? `if(${subtracted}, -toInt64(searches), toInt64(searches))` : 'toInt64(searches)';
    const read = [hours.length > 0 ? inHours(hours, 'h') : undefined, subtracted].filter(Boolean).join(' OR ');
    parts.push(`SELECT ${columns}, ${signed} AS signed, ${tag} AS cur FROM ${tables.hourly} WHERE ${where} AND (${read})`);
  }
  const inDates = (column: string, ranges: DayRange[], name: string) =>
    ranges
      .map((d, i) => {
        bind(params, { [`${prefix}_${name}${i}_from`]: d.from, [`${prefix}_${name}${i}_to`]: d.to });
        return `(${column} >= {${prefix}_${name}${i}_from:Date} AND ${column} < {${prefix}_${name}${i}_to:Date})`;
      })
      .join(' OR ');
  if (days.length > 0) {
    parts.push(`SELECT ${columns}, toInt64(searches) AS signed, ${tag} AS cur FROM ${tables.daily}
      WHERE ${where} AND (${inDates('day', days, 'd')})`);
  }
  if (weeks && tables.weekly) {
    parts.push(`SELECT ${columns}, toInt64(searches) AS signed, ${tag} AS cur FROM ${tables.weekly}
      WHERE ${where} AND ${inDates('week', [weeks], 'week')}`);
  }
  // A window always has at least one hour, so at least one part.
  return parts.join(' UNION ALL ');
}

/**
 * `phrase, handlers, covered` for every phrase some current entity handles: the newest saved version of each entity,
 * not deleted, whose language is the filter's or none (any language without a filter); handlers as sorted (type, id),
 * `covered` the sorted languages of those entities ('' for an entity of every language).
 */
export function handlersSql(ch: ClickHouseService, f: AnalyticsFilter, params: QueryParams): string {
  Object.assign(params, { customer: f.customer, instance: f.instance, language: f.language ?? '' });
  return `SELECT phrase, arraySort(groupUniqArray((type, id))) AS handlers, arraySort(groupUniqArray(language)) AS covered FROM (
      SELECT type, id, language, arrayJoin(handled_phrases) AS phrase FROM (
        SELECT type, id, handled_phrases, language, deleted FROM ${ch.table('entities')}
        WHERE customer = {customer:String} AND instance = {instance:String} AND kind = 'save'
        ORDER BY type, id, version DESC LIMIT 1 BY type, id
      ) WHERE NOT deleted ${f.language ? "AND (language = '' OR language = {language:String})" : ''}
    ) GROUP BY phrase`;
}

/**
 * `phrase, languages`: the sorted languages in which each phrase where `phrases` holds (a condition on `phrase`) was
 * searched and found nothing in `window` (zero-result rollup rows per language, whatever the filter's language).
 */
export function zeroResultLanguagesSql(
  ch: ClickHouseService,
  f: AnalyticsFilter,
  window: HourRange,
  phrases: string,
  params: QueryParams,
  now?: number,
): string {
  const rows = termRowsSql(ch, f, window, 1, params, { zeroHits: true, now, byLanguage: true, phrases });
  return `SELECT phrase, arraySort(groupArray(language)) AS languages FROM (
      SELECT phrase, language, sum(signed) AS searches FROM (${rows})
      GROUP BY phrase, language HAVING searches > 0
    ) GROUP BY phrase`;
}

/**
 * The languages of `languages` (an expression) that no entity of `covered` handles: none when one handles every
 * language (''). Without a language filter, a zero-result term is handled when this is empty.
 */
export function unhandledSql(languages: string, covered: string): string {
  return `if(has(${covered}, ''), [], arrayFilter(l -> NOT has(${covered}, l), ${languages}))`;
}
