import { Injectable } from '@nestjs/common';
import {
  ClickHouseService,
  DIMENSION_TABLES,
  dimensionColumns,
  dimensionRowsSql,
  type DimensionTable,
  type QueryParams,
} from '@app/clickhouse';
import { AppConfig } from '@app/config';
import type { AnalyticsFilter } from './analytics-scope';
import { COMPUTED, hourStatesSql } from './dimension-versions';
import { rangeSql, tenantSql } from './engagement-raw.repository';
import { aheadSql, bindNew, planOf, type VersionPlan } from './version-plan';
import type { HourRange } from './window';

/**
 * How the answers read the dimension rows (docs/architecture.md, "Filters, users, countries and tags"): the hours
 * DimensionRefresh computed ahead, at their newest version where it is up to date, the others (the current hour, and
 * any hour not computed yet or with searches stored since) computed from search_events by the same statement, so an
 * answer is exact at every moment.
 */
@Injectable()
export class DimensionRepository {
  /** Whether hours are computed ahead (ENGAGEMENT_REFRESH_MS > 0). */
  private readonly ahead: boolean;

  constructor(
    private readonly ch: ClickHouseService,
    config: AppConfig,
  ) {
    this.ahead = config.engagementRefreshMs > 0;
  }

  /**
   * Which hours of `range` are read from `table` as computed ahead (their newest version, where it counts in `table`
   * the searches the hour holds now), and which from search_events.
   */
  async plan(table: DimensionTable['table'], f: AnalyticsFilter, range: HourRange): Promise<VersionPlan> {
    if (!this.ahead) {
      return { ahead: [], raw: [range] };
    }
    const params: QueryParams = {};
    const where = `${tenantSql(params, f)} AND ${rangeSql('hour', range, 'v', params)}`;
    const rows = await this.ch.query<{ hour_ms: string | number; version_us: string | number }>(
      `SELECT toUnixTimestamp(hour) * 1000 AS hour_ms, toUnixTimestamp64Micro(version) AS version_us
       FROM (${hourStatesSql((name) => this.ch.table(name), where)})
       WHERE version_us > 0 AND ${COMPUTED[table]} = stored
       ORDER BY hour
       SETTINGS join_use_nulls = 0`,
      params,
    );
    return planOf(rows, range);
  }

  /**
   * `(SELECT ...)`, the rows of a dimension table (its key columns, `searches`, `users`, `last_search`) of one instance
   * for the hours of `plan`, where `where` (a condition on those columns) holds; its own parameters are named after
   * `name` (each part of a query that reads dimension rows needs a name of its own).
   */
  sql(table: DimensionTable['table'], f: AnalyticsFilter, plan: VersionPlan, where: string, params: QueryParams, name: string): string {
    const d = DIMENSION_TABLES.find((t) => t.table === table) as DimensionTable;
    const columns = `${dimensionColumns(d)}, searches, users, last_search`;
    const parts: string[] = [];
    if (plan.raw.length > 0) {
      // One statement for all raw ranges (one per range cost the engine its analysis again for each).
      const ranges = plan.raw
        .map((r, i) => {
          bindNew(params, { [`${name}_r${i}_from`]: r.from / 1000, [`${name}_r${i}_to`]: r.to / 1000 });
          return `(ts >= toDateTime({${name}_r${i}_from:UInt32}, 'UTC') AND ts < toDateTime({${name}_r${i}_to:UInt32}, 'UTC'))`;
        })
        .join(' OR ');
      const raw = dimensionRowsSql(d, (name) => this.ch.table(name), `${tenantSql(params, f)} AND (${ranges})`);
      parts.push(`SELECT ${columns} FROM (${raw}) WHERE ${where}`);
    }
    if (plan.ahead.length > 0 || parts.length === 0) {
      const hours = plan.ahead.length > 0 ? aheadSql(plan, params, `${name}_ahead`) : '0';
      parts.push(`SELECT ${columns} FROM ${this.ch.table(table)} WHERE ${tenantSql(params, f)} AND ${where} AND ${hours}`);
    }
    return `(${parts.join(' UNION ALL ')})`;
  }
}
