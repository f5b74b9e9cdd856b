import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { randomInt } from 'node:crypto';
import {
  ClickHouseCluster,
  ClickHouseService,
  DIMENSION_TABLES,
  dimensionColumns,
  dimensionRowsSql,
  type DimensionTable,
  type QueryParams,
} from '@app/clickhouse';
import { AppConfig } from '@app/config';
import { MetricsService } from '@app/metrics';
import { analyticsLane } from './analytics-slots';
import { DIMENSION_VERSIONS, derivedRowsSql, hourStatesSql } from './dimension-versions';
import { REPLACED_KEPT_MS, deleteReplacedVersions } from './engagement-cleanup';
import { CHANGES_MARGIN_MS, hourRuns } from './engagement-refresh';
import { PassSchedule } from './pass-schedule';
import { HOUR, type HourRange } from './window';

/**
 * An hour is computed once it ended this long after the changes' margin (CHANGES_MARGIN_MS): its last rows are then
 * older than the margin before the pass, so the next pass does not take them for new ones. A row of it stored later
 * makes the next pass compute it again.
 */
export const COMPLETE_AFTER_MARGIN_MS = 60_000;

/**
 * The most searches one statement of a pass groups (a day of a large instance is computed a few hours at a time), which
 * bounds its memory: at 100M searches a month, a day's rows outgrew the engine's 2 GB for grouping and spilled to disk
 * (docs/benchmarks/history/2026-11-28-issue-46-pass-runs.md).
 */
export const RUN_SEARCHES = 500_000;

/** Hours of one instance, in ms. */
export interface TenantHours {
  customer: string;
  instance: string;
  hours: number[];
}

/**
 * Computes the dimension rows (filters, users, countries, tags, latest hits) of every complete hour ahead of the
 * requests (docs/architecture.md, "Filters, users, countries and tags"), every ENGAGEMENT_REFRESH_MS, beside the
 * engagement pass and in the same way: each hour from the raw rows by the statement a reader uses for the hours not
 * computed (dimensionRowsSql), into the dimension tables under the start of its run of hours as version (the
 * untagged rows and the tag rows ordered by tag from the rows just computed: derivedRowsSql), recorded in
 * search_dimension_versions after its rows (with each table's count and the total it began from), a day at a time or
 * fewer hours (RUN_SEARCHES), the newest first (so a first pass over a large data set is bounded in memory, and one
 * killed resumes where it stopped). An hour is due when:
 * - it is complete (completeBefore: it ended CHANGES_MARGIN_MS and COMPLETE_AFTER_MARGIN_MS ago; the hours after it
 *   are read raw) and within the retention, and
 * - it was never computed and has searches, or its total in search_totals_hourly is no longer the one its newest
 *   version began from, or its newest version has no untagged or tagged phrase rows (recorded before migrations 0031
 *   and 0032), or
 *   search_events holds rows of it received after that version began (less CHANGES_MARGIN_MS: a row's time is taken
 *   before it is stored).
 * Every query process runs passes; two at once only repeat work (a reader takes each hour's newest version).
 */
@Injectable()
export class DimensionRefresh implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly schedule: PassSchedule;
  private lastCleanup = 0;
  /** Where the next pass looks for rows received (ms, storage's clock); undefined before this process's first pass. */
  private since?: number;
  /** CHANGES_MARGIN_MS; a test that needs exact counts of computed hours sets 0. */
  changesMarginMs = CHANGES_MARGIN_MS;
  /** RUN_SEARCHES; a test sets fewer to compute an hour at a time. */
  runSearches = RUN_SEARCHES;

  constructor(
    private readonly ch: ClickHouseService,
    private readonly config: AppConfig,
    private readonly cluster: ClickHouseCluster,
    private readonly metrics: MetricsService,
  ) {
    this.schedule = new PassSchedule('dimension refresh', config.engagementRefreshMs, new Logger('DimensionRefresh'), () =>
      this.ch.inLane(() => this.pass(), analyticsLane(this.config.analyticsConcurrency)),
    );
  }

  onApplicationBootstrap(): void {
    this.schedule.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.schedule.stop();
  }

  /** A pass that begins after this call (after the one running; callers meanwhile share it): the hours it computed. */
  refresh(): Promise<number> {
    return this.schedule.refresh();
  }

  /**
   * Computes `tenants`' complete hours again under a new version (an erasure's: their users must lose a token), in a
   * lane as a pass; the others are read raw anyway.
   */
  recompute(tenants: readonly TenantHours[]): Promise<void> {
    return this.ch.inLane(async () => {
      const complete = this.completeBefore(Math.floor((await this.newVersion()) / 1000));
      for (const tenant of tenants) {
        await this.computeAll({ ...tenant, hours: tenant.hours.filter((h) => h < complete) });
      }
    }, analyticsLane(this.config.analyticsConcurrency));
  }

  private async pass(): Promise<number> {
    const version = await this.newVersion();
    const now = Math.floor(version / 1000);
    const window: HourRange = {
      from: Math.floor((now - this.config.retentionDays * 24 * HOUR) / HOUR) * HOUR,
      to: this.completeBefore(now),
    };
    this.since ??= await this.lastRecorded();
    const due = await this.dueHours(window, this.since === undefined ? undefined : this.since - this.changesMarginMs);
    let computed = 0;
    for (const tenant of due) {
      await this.computeAll(tenant);
      computed += tenant.hours.length;
      this.metrics.dimensionHours.inc(tenant.hours.length);
    }
    this.since = now;
    this.metrics.dimensionPassSeconds.set(now / 1000);
    if (now - this.lastCleanup >= REPLACED_KEPT_MS) {
      await deleteReplacedVersions(this.cluster, now, DIMENSION_VERSIONS);
      this.lastCleanup = now;
    }
    return computed;
  }

  /** The end of the complete hours at `now` (ms): they ended the changes' margin and a minute ago. */
  completeBefore(now: number): number {
    return Math.floor((now - this.changesMarginMs - COMPLETE_AFTER_MARGIN_MS) / HOUR) * HOUR;
  }

  /** Storage's clock as a version (µs, with a random part: two passes that begin in one millisecond write apart). */
  private async newVersion(): Promise<number> {
    const [clock] = await this.ch.query<{ now_ms: string | number }>('SELECT toUnixTimestamp64Milli(now64(3)) AS now_ms');
    return Number(clock.now_ms) * 1000 + randomInt(1000);
  }

  /** When the newest version was recorded (ms), by any process: where a process's first pass looks for changes. */
  private async lastRecorded(): Promise<number | undefined> {
    const [row] = await this.ch.query<{ at: string | number }>(
      `SELECT toUnixTimestamp64Milli(max(recorded_at)) AS at FROM ${this.ch.table(DIMENSION_VERSIONS.versions)}`,
    );
    return Number(row.at) > 0 ? Number(row.at) : undefined;
  }

  /**
   * Per instance, the hours of `window` due (the class's rules); `since` (ms) where received rows are looked for: an
   * hour with a row received later than its newest version began, less the margin.
   */
  private async dueHours(window: HourRange, since?: number): Promise<TenantHours[]> {
    const params: QueryParams = { from: window.from / 1000, to: window.to / 1000, since: since ?? 0, margin: this.changesMarginMs };
    const inWindow = `hour >= toDateTime({from:UInt32}, 'UTC') AND hour < toDateTime({to:UInt32}, 'UTC')`;
    const changed = `SELECT customer, instance, hour FROM (${hourStatesSql((name) => this.ch.table(name), inWindow)})
      WHERE if(toUnixTimestamp64Micro(version) = 0, stored != 0,
        stored != recorded OR untagged_computed != computed OR tagged_computed != phrase_computed)`;
    const received = `SELECT customer, instance, hour FROM (
        SELECT customer, instance, toStartOfHour(ts) AS hour, max(received_at) AS newest_received FROM ${this.ch.table('search_events')}
        WHERE received_at >= fromUnixTimestamp64Milli({since:Int64}, 'UTC')
          AND ts >= toDateTime({from:UInt32}, 'UTC') AND ts < toDateTime({to:UInt32}, 'UTC')
        GROUP BY customer, instance, hour
      ) AS r LEFT JOIN (
        SELECT customer, instance, hour, max(version) AS newest FROM ${this.ch.table(DIMENSION_VERSIONS.versions)}
        WHERE ${inWindow} GROUP BY customer, instance, hour
      ) AS v USING (customer, instance, hour)
      WHERE newest_received >= v.newest - toIntervalMillisecond({margin:UInt32})`;
    const rows = await this.ch.query<{ customer: string; instance: string; hours: Array<string | number> }>(
      `SELECT customer, instance, groupUniqArray(toUnixTimestamp(hour)) AS hours
       FROM (${changed}${since === undefined ? '' : ` UNION ALL ${received}`})
       GROUP BY customer, instance
       SETTINGS join_use_nulls = 0`,
      params,
    );
    return rows.map((r) => ({ customer: r.customer, instance: r.instance, hours: r.hours.map((h) => Number(h) * 1000) }));
  }

  /**
   * Computes an instance's hours a day at a time (fewer hours where a day holds more than runSearches), the newest
   * first (the windows most read leave the raw rows first after an upgrade), each run of hours under a version of its
   * own (storage's clock as it begins: the rows a run reads back by their version are then its own, which the
   * version's minmax index finds without reading the runs before) and recorded once its rows are stored.
   */
  private async computeAll(tenant: TenantHours): Promise<void> {
    if (tenant.hours.length === 0) {
      return;
    }
    const searches = await this.hourTotals(tenant, { from: Math.min(...tenant.hours), to: Math.max(...tenant.hours) + HOUR });
    const runs = hourRuns(tenant.hours, undefined, { of: (hour) => searches.get(hour) ?? 0, most: this.runSearches });
    for (const run of runs.reverse()) {
      await this.compute(tenant, run, await this.newVersion());
    }
  }

  /** The searches of each hour of `range` (ms) with any, in search_totals_hourly (kept at every insert), by hour (ms). */
  private async hourTotals(tenant: TenantHours, range: HourRange): Promise<Map<number, number>> {
    const rows = await this.ch.query<{ h: string | number; n: string | number }>(
      `SELECT toUnixTimestamp(hour) AS h, toInt64(sum(searches)) AS n FROM ${this.ch.table('search_totals_hourly')}
       WHERE customer = {customer:String} AND instance = {instance:String}
         AND hour >= toDateTime({from:UInt32}, 'UTC') AND hour < toDateTime({to:UInt32}, 'UTC')
       GROUP BY hour`,
      { customer: tenant.customer, instance: tenant.instance, from: range.from / 1000, to: range.to / 1000 },
    );
    return new Map(rows.map((r) => [Number(r.h) * 1000, Number(r.n)]));
  }

  private async compute(tenant: TenantHours, run: HourRange, version: number): Promise<void> {
    const params: QueryParams = {
      customer: tenant.customer,
      instance: tenant.instance,
      from: run.from / 1000,
      to: run.to / 1000,
      version,
    };
    const tenantSql = 'customer = {customer:String} AND instance = {instance:String}';
    const inRun = (column: string) => `${column} >= toDateTime({from:UInt32}, 'UTC') AND ${column} < toDateTime({to:UInt32}, 'UTC')`;
    // The hours' totals before their rows are computed: a search stored meanwhile makes them differ afterwards.
    const totals = await this.hourTotals(tenant, run);
    Object.assign(params, { totals_hours: [...totals.keys()].map((h) => h / 1000), totals_n: [...totals.values()] });
    const version64 = "fromUnixTimestamp64Micro({version:Int64}, 'UTC')";
    for (const d of DIMENSION_TABLES) {
      const rows = d.from
        ? derivedRowsSql(d, this.ch.table(d.from), `${tenantSql} AND ${inRun('hour')} AND version = ${version64}`)
        : dimensionRowsSql(d, (name) => this.ch.table(name), `${tenantSql} AND ${inRun('ts')}`);
      await this.ch.command(
        `INSERT INTO ${this.ch.table(d.table)} (${dimensionColumns(d)}, version, searches, users, last_search)
         SELECT ${dimensionColumns(d)}, ${version64}, searches, users, last_search FROM (${rows})
         SETTINGS max_bytes_before_external_group_by = 2000000000`,
        params,
      );
    }
    // Each hour with the searches its version counts in each table (none: 0) and the total it began from; the tag rows
    // ordered by tag count the phrase searches once they are all those of the phrase table (else -1).
    const counted = (d: DimensionTable, dimension = 'search') => `SELECT hour, sum(searches) AS n FROM ${this.ch.table(d.table)}
      WHERE ${tenantSql} AND dimension = '${dimension}' AND ${inRun('hour')} AND version = ${version64}
      GROUP BY hour`;
    const [hourly, phrases, untagged, tagged] = DIMENSION_TABLES;
    await this.ch.command(
      `INSERT INTO ${this.ch.table(DIMENSION_VERSIONS.versions)}
         (customer, instance, hour, version, searches, phrase_searches, untagged_searches, tagged_searches, totals)
       SELECT {customer:String}, {instance:String}, hour, ${version64}, c.n, p.n, u.n, if(g.n = pg.n, p.n, -1), t.n FROM (
         SELECT toDateTime(arrayJoin(range({from:UInt32}, {to:UInt32}, 3600)), 'UTC') AS hour
       ) AS h
       LEFT JOIN (${counted(hourly)}) AS c USING (hour)
       LEFT JOIN (${counted(phrases)}) AS p USING (hour)
       LEFT JOIN (${counted(untagged)}) AS u USING (hour)
       LEFT JOIN (${counted(tagged, 'tag')}) AS g USING (hour)
       LEFT JOIN (${counted(phrases, 'tag')}) AS pg USING (hour)
       LEFT JOIN (
         SELECT toDateTime(x.1, 'UTC') AS hour, x.2 AS n
         FROM (SELECT arrayJoin(arrayZip({totals_hours:Array(UInt32)}, {totals_n:Array(Int64)})) AS x)
       ) AS t USING (hour)
       SETTINGS join_use_nulls = 0`,
      params,
    );
  }
}
