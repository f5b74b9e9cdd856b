import { Injectable } from '@nestjs/common';
import { ClickHouseService, type QueryParams } from '@app/clickhouse';
import type { AnalyticsFilter } from '../analytics/analytics-scope';
import { filterSql } from '../analytics/analytics-sql';
import { micros } from '../analytics/engagement';
import { EngagementRawRepository } from '../analytics/engagement-raw.repository';
import { EngagementRepository } from '../analytics/engagement.repository';
import type { HourRange } from '../analytics/window';

/** An object of GET /clicked-objects, its purchase revenue per currency in millionths. */
export interface ClickedObjectRow {
  object_id: string;
  clicks: number;
  clicked_searches: number;
  conversions: number;
  added_to_cart_searches: number;
  purchased_searches: number;
  purchaseRevenue: Map<string, bigint>;
}

/** GET /clicked-objects' one query (and its count for a page past the end). */
@Injectable()
export class ClickedObjectsRepository {
  constructor(
    private readonly ch: ClickHouseService,
    private readonly engagement: EngagementRepository,
    private readonly raw: EngagementRawRepository,
  ) {}

  /**
   * The objects clicked from the tracked searches of `range` (of `phrase` only, when given), most clicked first, ties
   * by object id: a page of them from `start` with the number of all; the raw ranges of the plan computed
   * (rawObjectsSql), its hours computed ahead read from engagement_objects_hourly.
   */
  async clickedObjects(
    f: AnalyticsFilter,
    range: HourRange,
    phrase: string | undefined,
    start: number,
    limit: number,
  ): Promise<{ rows: ClickedObjectRow[]; total: number }> {
    const plan = await this.engagement.plan(f, range);
    const params: QueryParams = { ...(phrase === undefined ? {} : { phrases: [phrase] }), start, limit };
    const columns = 'object_id, clicks, clicked, conversions, carted, purchased, pur_cur, pur_val';
    const parts = plan.raw.map(
      (r, i) => `SELECT ${columns} FROM (${this.raw.rawObjectsSql(f, r, params, phrase !== undefined, String(i))}) WHERE kind = 'object'`,
    );
    if (plan.ahead.length > 0) {
      parts.push(`SELECT ${columns} FROM ${this.ch.table('engagement_objects_hourly')}
        WHERE ${filterSql(f, params)} AND kind = 'object' ${phrase === undefined ? '' : 'AND phrase IN {phrases:Array(String)}'}
          AND ${this.engagement.aheadSql(plan, params)}`);
    }
    const grouped = `SELECT object_id, sum(clicks) AS clicks_n, sum(clicked) AS clicked_n, sum(conversions) AS conversions_n,
        sum(carted) AS carted_n, sum(purchased) AS purchased_n, sumMap(pur_cur, pur_val) AS pur
      FROM (${parts.join(' UNION ALL ')}) GROUP BY object_id HAVING clicks_n > 0`;
    const rows = await this.ch.query<Record<string, string | number> & { object_id: string; pur_cur: string[]; pur_val: string[] }>(
      `SELECT object_id, clicks_n, clicked_n, conversions_n, carted_n, purchased_n, pur.1 AS pur_cur,
         arrayMap(x -> toString(x), pur.2) AS pur_val, count() OVER () AS total
       FROM (${grouped}) ORDER BY clicks_n DESC, object_id ASC LIMIT {limit:UInt32} OFFSET {start:UInt32}`,
      params,
    );
    let total = Number(rows[0]?.total ?? 0);
    if (rows.length === 0 && start > 0) {
      // A page past the end has no row to carry the total.
      const [row] = await this.ch.query<{ n: string | number }>(`SELECT count() AS n FROM (${grouped})`, params);
      total = Number(row.n);
    }
    return {
      rows: rows.map((r) => ({
        object_id: r.object_id,
        clicks: Number(r.clicks_n),
        clicked_searches: Number(r.clicked_n),
        conversions: Number(r.conversions_n),
        added_to_cart_searches: Number(r.carted_n),
        purchased_searches: Number(r.purchased_n),
        purchaseRevenue: new Map(r.pur_cur.map((currency, i) => [currency, micros(r.pur_val[i])])),
      })),
      total,
    };
  }
}
