import { Injectable } from '@nestjs/common';
import { ClickHouseService } from '@app/clickhouse';
import type { TermsWindow } from './terms-window';

export interface TermsFilter {
  customer: string;
  instance: string;
  zeroHits: boolean;
  includeBots: boolean;
  language?: string;
  window: TermsWindow;
  start: number;
  limit: number;
}

const seconds = (ms: number) => Math.floor(ms / 1000);

/** Every ClickHouse query of GET /search-terms. Counts come from the rollups, never from raw events (TermsWindow). */
@Injectable()
export class SearchTermsRepository {
  constructor(private readonly ch: ClickHouseService) {}

  async terms(f: TermsFilter): Promise<{ rows: Array<{ phrase: string; count: number }>; total: number }> {
    const { days, hours } = f.window;
    const params: Record<string, unknown> = {
      customer: f.customer,
      instance: f.instance,
      zero_hits: f.zeroHits ? 1 : 0,
      bots: f.includeBots ? [0, 1] : [0],
      language: f.language ?? '',
      day_from: days?.from,
      day_to: days?.to,
      start: f.start,
      limit: f.limit,
    };
    hours.forEach((h, i) => Object.assign(params, { [`hour_from_${i}`]: seconds(h.from), [`hour_to_${i}`]: seconds(h.to) }));
    const inHours = hours
      .map((_, i) => `(hour >= toDateTime({hour_from_${i}:UInt32}, 'UTC') AND hour < toDateTime({hour_to_${i}:UInt32}, 'UTC'))`)
      .join(' OR ');
    const common = `customer = {customer:String} AND instance = {instance:String}
      AND zero_hits = {zero_hits:UInt8} AND bot IN {bots:Array(UInt8)} ${f.language ? 'AND language = {language:String}' : ''}`;
    const daily = `SELECT phrase, searches FROM ${this.ch.table('search_terms_daily')}
      WHERE ${common} AND day >= {day_from:Date} AND day < {day_to:Date}`;
    const source = `
      SELECT phrase, searches FROM ${this.ch.table('search_terms_hourly')} WHERE ${common} AND (${inHours})
      ${days ? `UNION ALL ${daily}` : ''}`;
    const rows = await this.ch.query<{ phrase: string; count: string | number; total: string | number }>(
      `SELECT phrase, sum(searches) AS count, count() OVER () AS total FROM (${source})
       GROUP BY phrase ORDER BY count DESC, phrase ASC LIMIT {limit:UInt32} OFFSET {start:UInt32}`,
      params,
    );
    if (rows.length > 0 || f.start === 0) {
      return { rows: rows.map((r) => ({ phrase: r.phrase, count: Number(r.count) })), total: Number(rows[0]?.total ?? 0) };
    }
    // A page past the end has no row to carry the total.
    const [{ total }] = await this.ch.query<{ total: string | number }>(`SELECT uniqExact(phrase) AS total FROM (${source})`, params);
    return { rows: [], total: Number(total) };
  }

  /**
   * Entities whose searchPhrases (normalised) contain one of the phrases: those with the filter's language or
   * no language, or any language when there is no filter.
   */
  async handlers(
    customer: string,
    instance: string,
    phrases: readonly string[],
    language?: string,
  ): Promise<Map<string, Array<{ type: string; id: string }>>> {
    const found = new Map<string, Array<{ type: string; id: string }>>();
    if (phrases.length === 0) return found;
    const rows = await this.ch.query<{ type: string; id: string; handled: string[] }>(
      `SELECT type, id, arrayIntersect(handled_phrases, {phrases:Array(String)}) AS handled FROM (
         SELECT type, id, handled_phrases, language, deleted FROM ${this.ch.table('entities')}
         WHERE customer = {customer:String} AND instance = {instance:String} AND kind = 'save'
         ORDER BY type, id, version DESC LIMIT 1 BY type, id
       ) WHERE NOT deleted AND hasAny(handled_phrases, {phrases:Array(String)})
         ${language ? "AND (language = '' OR language = {language:String})" : ''}
       ORDER BY type, id`,
      { customer, instance, phrases, language: language ?? '' },
    );
    for (const r of rows) {
      for (const phrase of r.handled) {
        const list = found.get(phrase) ?? [];
        list.push({ type: r.type, id: r.id });
        found.set(phrase, list);
      }
    }
    return found;
  }
}
