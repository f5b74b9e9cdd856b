import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { randomInt } from 'node:crypto';
import { ClickHouseCluster, ClickHouseService, ENGAGEMENT_CHANGES_KEPT_HOURS, ENGAGEMENT_LAYOUT, type QueryParams } from '@app/clickhouse';
import { AppConfig } from '@app/config';
import { MetricsService } from '@app/metrics';
import { analyticsLane } from './analytics-slots';
import { EngagementRawRepository, OBJECT_COLUMNS } from './engagement-raw.repository';
import { PHRASE_ROW_COLUMNS } from './engagement.repository';
import { EngagementSpans } from './engagement-spans';
import { OldSearches } from './old-searches';
import { REPLACED_KEPT_MS, deleteReplacedSpans, deleteReplacedVersions } from './engagement-cleanup';
import { PassSchedule } from './pass-schedule';
import { HOUR, type HourRange } from './window';

/**
 * Changes are read from this long before the last complete pass began: a row's time is taken when storage starts
 * to insert it, a little before a query can see it.
 */
export const CHANGES_MARGIN_MS = 5 * 60_000;
/** Hours computed by one statement, which bounds its memory (a day is a 30th of the 30-day computation). */
const RUN_HOURS = 24;
interface TenantHours {
  customer: string;
  instance: string;
  /** The hours to compute (ms), and those of them with searches. */
  hours: number[];
  busy: Set<number>;
}

/**
 * The hours in `hours` (ms, any order, repeats allowed) as ranges of consecutive hours, at most `most` each, and with
 * `searches`, at most `searches.most` searches each (`searches.of` an hour's; an hour with more is a range alone).
 */
export function hourRuns(
  hours: readonly number[],
  most = RUN_HOURS,
  searches?: { of: (hour: number) => number; most: number },
): HourRange[] {
  const sorted = [...new Set(hours)].sort((a, b) => a - b);
  const runs: HourRange[] = [];
  let inRun = 0;
  for (const hour of sorted) {
    const last = runs.at(-1);
    const n = searches?.of(hour) ?? 0;
    if (last && last.to === hour && last.to - last.from < most * HOUR && (!searches || inRun + n <= searches.most)) {
      last.to += HOUR;
      inRun += n;
    } else {
      runs.push({ from: hour, to: hour + HOUR });
      inRun = n;
    }
  }
  return runs;
}

/**
 * Computes the engagement figures of every hour ahead of the requests (docs/architecture.md, "Clicks and
 * conversions"), every ENGAGEMENT_REFRESH_MS, into engagement_hourly (the counts; its phrase rows also in
 * engagement_phrases_hourly, ordered by phrase first) and engagement_objects_hourly (the clicks per position and per
 * object of a term's detail); EngagementRepository reads them. A pass computes, per instance with searches in the
 * retention, the hours never computed (the retention's to the current one) and those whose figures may have changed
 * since the last complete pass: the hours of every copy of a search id stored since (a search, or a click or
 * conversion naming it) and of the interactions of shoppers erased since. Each hour is computed by the same queries
 * as an answer from the raw tables (rawGroupsSql, rawObjectsSql), under the pass's start (in microseconds, with a
 * random part) as its version, and its version is recorded after its rows. Every query process runs passes; two
 * passes at once only repeat work. A pass runs in a lane of the engine, as an analytics request does.
 */
@Injectable()
export class EngagementRefresh implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly schedule: PassSchedule;
  private lastCleanup = 0;
  /** CHANGES_MARGIN_MS; a test that needs exact counts of computed hours sets 0. */
  changesMarginMs = CHANGES_MARGIN_MS;

  constructor(
    private readonly ch: ClickHouseService,
    private readonly engagement: EngagementRawRepository,
    private readonly config: AppConfig,
    private readonly metrics: MetricsService,
    private readonly oldSearches: OldSearches,
    private readonly cluster: ClickHouseCluster,
    private readonly spans: EngagementSpans,
  ) {
    // Old searches are adopted on the main connection (that writes search_events), the pass in a lane.
    this.schedule = new PassSchedule('engagement refresh', config.engagementRefreshMs, new Logger('EngagementRefresh'), () =>
      this.oldSearches.adopt().then(() => this.ch.inLane(() => this.pass(), analyticsLane(this.config.analyticsConcurrency))),
    );
  }

  onApplicationBootstrap(): void {
    this.schedule.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.schedule.stop();
  }

  /**
   * A pass that begins after this call: after the one running, if any (callers meanwhile share it). Answers the
   * number of hours it computed.
   */
  refresh(): Promise<number> {
    return this.schedule.refresh();
  }

  private async pass(): Promise<number> {
    const [clock] = await this.ch.query<{ now_ms: string | number; last_ms: string | number }>(
      `SELECT toUnixTimestamp64Milli(now64(3)) AS now_ms, toUnixTimestamp64Milli(maxIf(at, layout = {layout:UInt8})) AS last_ms
       FROM ${this.ch.table('engagement_passes')}`,
      { layout: ENGAGEMENT_LAYOUT },
    );
    const now = Number(clock.now_ms);
    const last = Number(clock.last_ms);
    const window: HourRange = {
      from: Math.floor((now - this.config.retentionDays * 24 * HOUR) / HOUR) * HOUR,
      to: Math.floor(now / HOUR) * HOUR + HOUR,
    };
    // Changes are kept ENGAGEMENT_CHANGES_KEPT_HOURS: a pass after a longer pause computes every hour again.
    const everything = last === 0 || last < now - (ENGAGEMENT_CHANGES_KEPT_HOURS - 1) * HOUR;
    const tenants = await this.dueHours(window, everything ? undefined : last - this.changesMarginMs);
    // Two passes that begin in the same millisecond still write apart.
    const version = now * 1000 + randomInt(1000);
    let computed = 0;
    for (const tenant of tenants) {
      for (const run of hourRuns(tenant.hours.filter((h) => tenant.busy.has(h)))) {
        await this.compute(tenant, run, version);
      }
      await this.record(tenant, tenant.hours, version);
      computed += tenant.hours.length;
      this.metrics.engagementHours.inc(tenant.hours.length);
    }
    // Before the pass is recorded, so that a complete pass has its spans; a build that fails does not stop the pass.
    const spans = await this.spans.build(window, now, version);
    this.metrics.engagementSpans.inc(spans.built);
    this.metrics.engagementSpanFailures.inc(spans.failed);
    await this.ch.command(
      `INSERT INTO ${this.ch.table('engagement_passes')} (at, layout) SELECT fromUnixTimestamp64Milli({at:Int64}, 'UTC'), {layout:UInt8}`,
      { at: now, layout: ENGAGEMENT_LAYOUT },
    );
    this.metrics.engagementPassSeconds.set(now / 1000);
    if (now - this.lastCleanup >= REPLACED_KEPT_MS) {
      await this.deleteReplaced(now);
      this.lastCleanup = now;
    }
    return computed;
  }

  /**
   * Per instance, the hours of `window` to compute: those never computed (every hour of the window, for an instance
   * with a search in it), and (`since`, ms) those whose figures may have changed since then; every hour when `since`
   * is undefined.
   */
  private async dueHours(window: HourRange, since?: number): Promise<TenantHours[]> {
    const params: QueryParams = { from: window.from / 1000, to: window.to / 1000, since: since ?? 0, layout: ENGAGEMENT_LAYOUT };
    const inWindow = `hour >= toDateTime({from:UInt32}, 'UTC') AND hour < toDateTime({to:UInt32}, 'UTC')`;
    const all = `SELECT customer, instance, toDateTime(arrayJoin(range({from:UInt32}, {to:UInt32}, 3600)), 'UTC') AS hour
      FROM (SELECT DISTINCT customer, instance FROM ${this.ch.table('search_totals_hourly')} WHERE ${inWindow})`;
    const parts = [
      since === undefined
        ? all
        : `SELECT customer, instance, hour FROM (${all})
           WHERE (customer, instance, hour) NOT IN (
             SELECT customer, instance, hour FROM ${this.ch.table('engagement_versions')} WHERE ${inWindow} AND layout = {layout:UInt8})`,
    ];
    if (since !== undefined) {
      const ofIds = (ids: string) => `SELECT customer, instance, hour FROM (
          SELECT customer, instance, arrayJoin(hours) AS hour FROM ${this.ch.table('search_ids')}
          WHERE (customer, instance, search_id) IN (${ids})
        ) WHERE ${inWindow}`;
      parts.push(
        ofIds(`SELECT customer, instance, search_id FROM ${this.ch.table('engagement_changes')}
          WHERE inserted_at >= fromUnixTimestamp64Milli({since:Int64}, 'UTC')`),
      );
      // Only when someone was erased since: finding their interactions reads a column of all of them.
      const erased = `SELECT customer, instance, user_token_hash FROM ${this.ch.table('erased_user_tokens')}
        WHERE at >= toDateTime(intDiv({since:Int64}, 1000), 'UTC')`;
      const [{ n }] = await this.ch.query<{ n: string | number }>(`SELECT count() AS n FROM (${erased})`, params);
      if (Number(n) > 0) {
        parts.push(
          ofIds(`SELECT customer, instance, search_id FROM ${this.ch.table('interactions')}
            WHERE (customer, instance, user_token_hash) IN (${erased}) OR (customer, instance, session_hash) IN (${erased})`),
        );
      }
    }
    // An hour without any search has no figures to compute: it is only recorded as computed.
    type Row = { customer: string; instance: string; hours: Array<string | number>; busy: Array<string | number> };
    const rows = await this.ch.query<Row>(
      `SELECT customer, instance, groupUniqArray(toUnixTimestamp(hour)) AS hours,
         groupUniqArrayIf(toUnixTimestamp(hour), (customer, instance, hour) IN (
           SELECT customer, instance, hour FROM ${this.ch.table('search_totals_hourly')} WHERE ${inWindow})) AS busy
       FROM (${parts.join(' UNION ALL ')})
       GROUP BY customer, instance`,
      params,
    );
    const ms = (hours: Array<string | number>) => hours.map((h) => Number(h) * 1000);
    return rows.map((r) => ({ customer: r.customer, instance: r.instance, hours: ms(r.hours), busy: new Set(ms(r.busy)) }));
  }

  /** The rows of the hours of `run` of one instance, as the raw tables give them now, under `version` (µs). */
  private async compute(tenant: TenantHours, run: HourRange, version: number): Promise<void> {
    const f = { customer: tenant.customer, instance: tenant.instance, includeBots: true };
    const params: QueryParams = { version, run_from: run.from / 1000, run_to: run.to / 1000 };
    const columns =
      'customer, instance, kind, hour, phrase, language, bot, version, tracked, clicked, clicks, pos_sum, converted, rev_cur, rev_val, ' +
      'carted, purchased, pur_cur, pur_val';
    const table = this.ch.table('engagement_hourly');
    const at = `fromUnixTimestamp64Micro({version:Int64}, 'UTC')`;
    await this.ch.command(
      `INSERT INTO ${table} (${columns})
       SELECT {customer:String}, {instance:String}, 'phrase', hour, phrase, language, bot, ${at},
         g_tracked, g_clicked, g_clicks, g_pos, g_converted, g_cur, g_val, g_carted, g_purchased, g_pcur, g_pval
       FROM (${this.engagement.rawGroupsSql(f, run, params)})`,
      params,
    );
    await this.ch.command(
      `INSERT INTO ${table} (${columns})
       SELECT customer, instance, 'total', hour, '', language, bot, version, sum(tracked), sum(clicked), sum(clicks), sum(pos_sum),
         sum(converted), sumMap(rev_cur, rev_val).1, sumMap(rev_cur, rev_val).2, sum(carted), sum(purchased),
         sumMap(pur_cur, pur_val).1, sumMap(pur_cur, pur_val).2
       FROM ${table}
       WHERE customer = {customer:String} AND instance = {instance:String} AND kind = 'phrase' AND version = ${at}
         AND hour >= toDateTime({run_from:UInt32}, 'UTC') AND hour < toDateTime({run_to:UInt32}, 'UTC')
       GROUP BY customer, instance, hour, language, bot, version`,
      params,
    );
    // The same phrase rows ordered by phrase first, for the reads of a few phrases (a list's page, a term's detail).
    await this.ch.command(
      `INSERT INTO ${this.ch.table('engagement_phrases_hourly')} (${PHRASE_ROW_COLUMNS})
       SELECT ${PHRASE_ROW_COLUMNS} FROM ${table}
       WHERE customer = {customer:String} AND instance = {instance:String} AND kind = 'phrase' AND version = ${at}
         AND hour >= toDateTime({run_from:UInt32}, 'UTC') AND hour < toDateTime({run_to:UInt32}, 'UTC')`,
      params,
    );
    await this.ch.command(
      `INSERT INTO ${this.ch.table('engagement_objects_hourly')} (customer, instance, version, ${OBJECT_COLUMNS})
       SELECT {customer:String}, {instance:String}, ${at}, ${OBJECT_COLUMNS} FROM (${this.engagement.rawObjectsSql(f, run, params)})`,
      params,
    );
  }

  /** Records `hours` (ms) of one instance as computed under `version` (µs), once their rows are stored. */
  private async record(tenant: TenantHours, hours: number[], version: number): Promise<void> {
    const runs = hourRuns(hours, Infinity);
    await this.ch.command(
      `INSERT INTO ${this.ch.table('engagement_versions')} (customer, instance, hour, version, layout)
       SELECT {customer:String}, {instance:String}, toDateTime(arrayJoin(range(r.1, r.2, 3600)), 'UTC'),
         fromUnixTimestamp64Micro({version:Int64}, 'UTC'), {layout:UInt8}
       FROM (SELECT arrayJoin(arrayZip({from:Array(UInt32)}, {to:Array(UInt32)})) AS r)`,
      {
        customer: tenant.customer,
        instance: tenant.instance,
        from: runs.map((r) => r.from / 1000),
        to: runs.map((r) => r.to / 1000),
        version,
        layout: ENGAGEMENT_LAYOUT,
      },
    );
  }

  /** Deletes the spans and versions no reader reads any more (deleteReplacedSpans, deleteReplacedVersions). */
  async deleteReplaced(now: number): Promise<void> {
    await deleteReplacedSpans(this.cluster, now);
    await deleteReplacedVersions(this.cluster, now);
  }
}
