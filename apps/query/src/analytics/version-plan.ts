import type { ClickHouseService, QueryParams } from '@app/clickhouse';
import type { AnalyticsFilter } from './analytics-scope';
import { rangeSql, tenantSql } from './engagement-raw.repository';
import { HOUR, type HourRange } from './window';

/**
 * How a window's figures are read where a pass computes hours ahead under versions (the engagement figures, the
 * dimensions): the hours computed ahead, each at its newest recorded version, and the rest from the raw tables, as
 * ranges of whole hours.
 */
export interface VersionPlan {
  /** Ranges of hours computed ahead, each read at one version (µs). */
  ahead: Array<HourRange & { version: number }>;
  raw: HourRange[];
}

/**
 * The plan of `range` for one instance: each hour that `versions` (a table of customer, instance, hour, version)
 * records, where `condition` holds, at its newest version; the other hours raw. A version stays readable for an hour
 * after a newer one was recorded (deleteReplacedVersions), far longer than a request reads.
 */
export async function versionPlan(
  ch: ClickHouseService,
  versions: string,
  f: AnalyticsFilter,
  range: HourRange,
  condition: { sql: string; params: QueryParams } = { sql: '1', params: {} },
): Promise<VersionPlan> {
  const params: QueryParams = { ...condition.params };
  const rows = await ch.query<{ hour_ms: string | number; version_us: string | number }>(
    `SELECT toUnixTimestamp(hour) * 1000 AS hour_ms, toUnixTimestamp64Micro(max(version)) AS version_us
     FROM ${ch.table(versions)}
     WHERE ${tenantSql(params, f)} AND ${rangeSql('hour', range, 'v', params)} AND ${condition.sql}
     GROUP BY hour ORDER BY hour`,
    params,
  );
  return planOf(rows, range);
}

/** A plan from the hours computed ahead (`hour_ms`, ascending) with their versions (`version_us`): the rest raw. */
export function planOf(rows: ReadonlyArray<{ hour_ms: string | number; version_us: string | number }>, range: HourRange): VersionPlan {
  const plan: VersionPlan = { ahead: [], raw: [] };
  let next = range.from;
  for (const row of rows) {
    const hour = Number(row.hour_ms);
    const version = Number(row.version_us);
    if (hour > next) {
      plan.raw.push({ from: next, to: hour });
    }
    const last = plan.ahead.at(-1);
    if (last && last.to === hour && last.version === version) {
      last.to += HOUR;
    } else {
      plan.ahead.push({ from: hour, to: hour + HOUR, version });
    }
    next = hour + HOUR;
  }
  if (next < range.to) {
    plan.raw.push({ from: next, to: range.to });
  }
  return plan;
}

/**
 * The rows of a table computed ahead whose hour and version `plan` reads (a condition on `hour` and `version`), with
 * parameters named after `name` (two plans in one query need two names: a name bound twice throws).
 */
export function aheadSql(plan: VersionPlan, params: QueryParams, name = 'ahead'): string {
  // Ranges of hours with their version, not each hour: a run of a pass gives many hours one version.
  bindNew(params, {
    [`${name}_from`]: plan.ahead.map((a) => a.from / 1000),
    [`${name}_to`]: plan.ahead.map((a) => a.to / 1000),
    [`${name}_version`]: plan.ahead.map((a) => a.version),
  });
  return `(hour, version) IN (
      SELECT toDateTime(arrayJoin(range(a.1, a.2, 3600)), 'UTC'), fromUnixTimestamp64Micro(a.3, 'UTC')
      FROM (SELECT arrayJoin(arrayZip({${name}_from:Array(UInt32)}, {${name}_to:Array(UInt32)}, {${name}_version:Array(Int64)})) AS a)
    )`;
}

/** Sets query parameters that no part of the query has set yet (two parts naming one alike would read one value). */
export function bindNew(params: QueryParams, values: QueryParams): void {
  for (const [name, value] of Object.entries(values)) {
    if (name in params) {
      throw new Error(`query parameter ${name} bound twice`);
    }
    params[name] = value;
  }
}
