import { Injectable } from '@nestjs/common';
import { ClickHouseService, type DimensionTable, type QueryParams } from '@app/clickhouse';
import { filterSql, hourRangeSql } from '../analytics/analytics-sql';
import { DimensionRepository } from '../analytics/dimension.repository';
import { tagsSql } from '../analytics/tags-param';
import type { HourRange } from '../analytics/window';
import { termId } from '../analytics/term-id';
import type { SearchBreakdownCriteria } from './search-breakdown.query';

export interface BreakdownRow {
  attribute: string;
  operator: string;
  value: string;
  searches: number;
  zero_hit_searches: number;
  users: number;
}

/**
 * GET /search-breakdown's one query: whole hours of the dimension rows (search_dimensions_untagged_hourly, with `tags`
 * search_dimensions_hourly, for one phrase search_phrase_dimensions_hourly read by its term id), as
 * DimensionRepository reads them. Keys whose searches sum to 0 (a compensated duplicate) are left out; the total
 * comes with the page (a window count over the keys).
 */
@Injectable()
export class SearchBreakdownRepository {
  constructor(
    private readonly ch: ClickHouseService,
    private readonly dimensions: DimensionRepository,
  ) {}

  async page(c: SearchBreakdownCriteria, window: HourRange, limit: number): Promise<{ rows: BreakdownRow[]; total: number }> {
    const params: QueryParams = { by: c.by, start: c.start, limit };
    const conditions = [filterSql(c, params), 'dimension = {by:String}', hourRangeSql(window, 'w', params), tagsSql(c.tags, params)];
    if (c.attribute !== undefined) {
      params.attribute = c.attribute;
      conditions.push('attribute = {attribute:String}');
    }
    if (c.hits !== undefined) {
      conditions.push(`zero_hits = ${c.hits ? 0 : 1}`);
    }
    // Without a tag to filter by, the rows summed over the tag sets (far fewer).
    let table: DimensionTable['table'] = c.tags ? 'search_dimensions_hourly' : 'search_dimensions_untagged_hourly';
    if (c.phrase !== undefined) {
      Object.assign(params, { phrase: c.phrase, id: termId(c.customer, c.instance, c.phrase) });
      table = 'search_phrase_dimensions_hourly';
      conditions.push('term_id = unhex({id:String})', 'phrase = {phrase:String}');
    }
    const source = this.dimensions.sql(table, c, await this.dimensions.plan(table, c, window), conditions.join(' AND '), params, 'b');
    const order = c.order === 'asc' ? 'ASC' : 'DESC';
    const rows = await this.ch.query<Record<'attribute' | 'operator' | 'value' | 's' | 'z' | 'u' | 'total', string | number>>(
      `SELECT attribute, operator, value, sum(searches) AS s, sumIf(searches, zero_hits) AS z, uniqCombined64Merge(14)(users) AS u,
         count() OVER () AS total
       FROM ${source}
       GROUP BY attribute, operator, value HAVING s > 0
       ORDER BY ${c.sort === 'searches' ? 's' : 'z'} ${order}, attribute, operator, value
       LIMIT {limit:UInt32} OFFSET {start:UInt32}`,
      params,
    );
    const total = rows.length > 0 ? Number(rows[0].total) : c.start > 0 ? await this.total(source, params) : 0;
    return {
      rows: rows.map((r) => ({
        attribute: String(r.attribute),
        operator: String(r.operator),
        value: String(r.value),
        searches: Number(r.s),
        zero_hit_searches: Number(r.z),
        users: Number(r.u),
      })),
      total,
    };
  }

  /** The number of keys, for a page past the end (which has no row to carry it). */
  private async total(source: string, params: QueryParams): Promise<number> {
    const [row] = await this.ch.query<{ n: string | number }>(
      `SELECT count() AS n FROM (SELECT 1 FROM ${source}
         GROUP BY attribute, operator, value HAVING sum(searches) > 0)`,
      params,
    );
    return Number(row.n);
  }
}
