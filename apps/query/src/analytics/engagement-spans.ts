import { Injectable, Logger } from '@nestjs/common';
import { ClickHouseService, ENGAGEMENT_LAYOUT, type QueryParams } from '@app/clickhouse';
import type { AnalyticsFilter } from './analytics-scope';
import { aheadSql, planOf, versionPlan, type VersionPlan } from './version-plan';
import { HOUR, type HourRange } from './window';

/** Hours this recent are left out of a span: clicks and conversions still come in for their searches. */
export const SETTLED_HOURS = 24;
/** A span begins this many hours before the current one: the longest window most lists ask for (`since=30d`). */
export const SPAN_HOURS = 30 * 24;
/**
 * A span holding more hours computed again since than this is built again before its hours move on: the readers
 * correct each such hour (spanPlan), and each costs them about what an hour of the window does.
 */
export const REPLACED_MOST = 24;
/** A span begins this long after the retention's first hour at the least: that hour's rows expire (TTL) meanwhile. */
const RETENTION_MARGIN_HOURS = 2;

/** A span's record (engagement_spans): its hours, each at the version it summed. */
export interface Span {
  /** µs. */
  version: number;
  from: number;
  to: number;
  runs: Array<HourRange & { version: number }>;
}

/**
 * How a window's figures per phrase are read with a span: the span's rows, less `minus` (hours at the span's versions:
 * outside the window, or computed again since the span), plus the plan's hours (the window's hours the span does not
 * hold at their newest version).
 */
export interface SpanPlan extends VersionPlan {
  span: { version: number; minus: Array<HourRange & { version: number }> };
}

/** The hours of a plan, each with its version (µs), or undefined where it is read raw. */
function hoursOf(plan: VersionPlan): Map<number, number | undefined> {
  const hours = new Map<number, number | undefined>();
  for (const a of plan.ahead) {
    for (let h = a.from; h < a.to; h += HOUR) {
      hours.set(h, a.version);
    }
  }
  for (const r of plan.raw) {
    for (let h = r.from; h < r.to; h += HOUR) {
      hours.set(h, undefined);
    }
  }
  return hours;
}

/** Hours with versions as runs of consecutive hours of one version. */
function runsOf(hours: ReadonlyArray<{ hour: number; version: number }>): Array<HourRange & { version: number }> {
  return planOf(
    hours.map((h) => ({ hour_ms: h.hour, version_us: h.version })),
    { from: hours[0]?.hour ?? 0, to: (hours.at(-1)?.hour ?? -HOUR) + HOUR },
  ).ahead;
}

/**
 * How to read `window` (`current`: the plan of the hours of the window and of `span`, at their newest versions): with
 * the span, unless it would cost more than it saves (`always`: whenever it holds an hour of the window at its
 * version); else as `current` says. Exact: an hour of the span whose newest version is not the span's is read at its
 * newest version and subtracted at the span's, as is every hour of the span outside the window.
 */
export function spanPlan(window: HourRange, span: Span | undefined, current: VersionPlan, always = false): VersionPlan | SpanPlan {
  const newest = hoursOf(current);
  const inSpan = new Set<number>();
  const minus: Array<{ hour: number; version: number }> = [];
  for (const run of span?.runs ?? []) {
    for (let hour = run.from; hour < run.to; hour += HOUR) {
      if (hour >= window.from && hour < window.to && newest.get(hour) === run.version) {
        inSpan.add(hour);
      } else {
        minus.push({ hour, version: run.version });
      }
    }
  }
  // A subtracted hour costs about what an added one does; the span's rows cost about a day's hours.
  const worth = span !== undefined && inSpan.size > 0 && (always || minus.length + 24 < inSpan.size);
  const rest: Array<{ hour: number; version: number }> = [];
  const raw: HourRange[] = [];
  for (let hour = window.from; hour < window.to; hour += HOUR) {
    const version = newest.get(hour);
    if (worth && inSpan.has(hour)) {
      continue;
    }
    if (version === undefined) {
      const last = raw.at(-1);
      if (last && last.to === hour) {
        last.to += HOUR;
      } else {
        raw.push({ from: hour, to: hour + HOUR });
      }
    } else {
      rest.push({ hour, version });
    }
  }
  const ahead = runsOf(rest);
  return worth ? { ahead, raw, span: { version: span.version, minus: runsOf(minus) } } : { ahead, raw };
}

/**
 * The spans (docs/architecture.md, "Orders kept ahead"): every phrase's engagement figures over the last 30 days'
 * settled hours, per instance, built by the engagement pass and read by the lists whose order needs every phrase's
 * figures (and by their CSV).
 */
@Injectable()
export class EngagementSpans {
  /** SETTLED_HOURS; tests set fewer. */
  settledHours = SETTLED_HOURS;
  /** REPLACED_MOST; tests set 0. */
  replacedMost = REPLACED_MOST;
  private readonly logger = new Logger('EngagementSpans');

  constructor(private readonly ch: ClickHouseService) {}

  /** The newest span of this release's layout of an instance. */
  async newest(f: Pick<AnalyticsFilter, 'customer' | 'instance'>): Promise<Span | undefined> {
    const [row] = await this.ch.query<{
      version: string | number;
      span_from: string | number;
      span_to: string | number;
      run_from: Array<string | number>;
      run_to: Array<string | number>;
      run_version: Array<string | number>;
    }>(
      `SELECT toUnixTimestamp64Micro(span) AS version, toUnixTimestamp(span_from) AS span_from, toUnixTimestamp(span_to) AS span_to,
         arrayMap(h -> toUnixTimestamp(h), run_from) AS run_from, arrayMap(h -> toUnixTimestamp(h), run_to) AS run_to,
         arrayMap(v -> toUnixTimestamp64Micro(v), run_version) AS run_version
       FROM ${this.ch.table('engagement_spans')}
       WHERE customer = {customer:String} AND instance = {instance:String} AND layout = {layout:UInt8}
       ORDER BY span DESC LIMIT 1`,
      { customer: f.customer, instance: f.instance, layout: ENGAGEMENT_LAYOUT },
    );
    if (!row) {
      return undefined;
    }
    return {
      version: Number(row.version),
      from: Number(row.span_from) * 1000,
      to: Number(row.span_to) * 1000,
      runs: row.run_from.map((from, i) => ({
        from: Number(from) * 1000,
        to: Number(row.run_to[i]) * 1000,
        version: Number(row.run_version[i]),
      })),
    };
  }

  /**
   * Builds, under `version` (µs), the span of each instance with searches in its hours (SPAN_HOURS before the current
   * hour of `now` (ms), within `retention`, up to the settled hours) whose newest span has other hours or holds more
   * than REPLACED_MOST hours at a version since replaced, once every hour of it is computed. An instance whose build
   * fails is logged and left to the next pass (its lists read the hours meanwhile). Answers the spans built and
   * failed.
   */
  async build(retention: HourRange, now: number, version: number): Promise<{ built: number; failed: number }> {
    const current = Math.floor(now / HOUR) * HOUR;
    const from = Math.max(retention.from + RETENTION_MARGIN_HOURS * HOUR, current - SPAN_HOURS * HOUR);
    const to = current - this.settledHours * HOUR;
    if (to <= from) {
      return { built: 0, failed: 0 };
    }
    const params: QueryParams = { from: from / 1000, to: to / 1000, layout: ENGAGEMENT_LAYOUT, replaced_most: this.replacedMost };
    const inSpan = `hour >= toDateTime({from:UInt32}, 'UTC') AND hour < toDateTime({to:UInt32}, 'UTC')`;
    const spans = this.ch.table('engagement_spans');
    // Per instance with searches: its newest span, and how many of its hours were computed again since.
    const due = await this.ch.query<{ customer: string; instance: string }>(
      `SELECT customer, instance FROM (
         SELECT DISTINCT customer, instance FROM ${this.ch.table('search_totals_hourly')} WHERE ${inSpan}
       ) AS i
       LEFT JOIN (
         SELECT customer, instance, argMax((span_from, span_to), span) AS bounds, 1 AS found FROM ${spans}
         WHERE layout = {layout:UInt8} GROUP BY customer, instance
       ) AS s USING (customer, instance)
       WHERE s.found = 0 OR s.bounds != (toDateTime({from:UInt32}, 'UTC'), toDateTime({to:UInt32}, 'UTC'))
         OR (customer, instance) IN (${replacedSql(this.ch, inSpan)})`,
      params,
    );
    const counts = { built: 0, failed: 0 };
    for (const tenant of due) {
      try {
        if (await this.buildOne(tenant, { from, to }, version)) {
          counts.built++;
        }
      } catch (e) {
        counts.failed++;
        this.logger.warn(`the span of ${tenant.customer}/${tenant.instance} was not built: ${(e as Error).message}`);
      }
    }
    return counts;
  }

  /** The span of `range` of one instance, if every hour of it is computed. */
  private async buildOne(tenant: { customer: string; instance: string }, range: HourRange, version: number): Promise<boolean> {
    const f = { ...tenant, includeBots: true };
    const plan = await versionPlan(this.ch, 'engagement_versions', f, range, {
      sql: 'layout = {layout:UInt8}',
      params: { layout: ENGAGEMENT_LAYOUT },
    });
    if (plan.raw.length > 0) {
      return false;
    }
    const params: QueryParams = { ...tenant, version };
    const at = `fromUnixTimestamp64Micro({version:Int64}, 'UTC')`;
    await this.ch.command(
      `INSERT INTO ${this.ch.table('engagement_phrase_spans')}
         (customer, instance, span, phrase, language, bot, tracked, clicked, clicks, pos_sum, converted, rev_cur, rev_val, carted,
          purchased, pur_cur, pur_val)
       SELECT {customer:String}, {instance:String}, ${at}, phrase, language, bot, sum(tracked), sum(clicked), sum(clicks),
         sum(pos_sum), sum(converted), sumMap(rev_cur, rev_val).1, sumMap(rev_cur, rev_val).2, sum(carted), sum(purchased),
         sumMap(pur_cur, pur_val).1, sumMap(pur_cur, pur_val).2
       FROM ${this.ch.table('engagement_phrases_hourly')}
       WHERE customer = {customer:String} AND instance = {instance:String} AND ${aheadSql(plan, params)}
       GROUP BY phrase, language, bot`,
      params,
    );
    await this.ch.command(
      `INSERT INTO ${this.ch.table('engagement_spans')}
         (customer, instance, span, span_from, span_to, run_from, run_to, run_version, layout)
       SELECT {customer:String}, {instance:String}, ${at}, toDateTime({from:UInt32}, 'UTC'), toDateTime({to:UInt32}, 'UTC'),
         arrayMap(h -> toDateTime(h, 'UTC'), {run_from:Array(UInt32)}), arrayMap(h -> toDateTime(h, 'UTC'), {run_to:Array(UInt32)}),
         arrayMap(v -> fromUnixTimestamp64Micro(v, 'UTC'), {run_version:Array(Int64)}), {layout:UInt8}`,
      {
        ...params,
        from: range.from / 1000,
        to: range.to / 1000,
        run_from: plan.ahead.map((a) => a.from / 1000),
        run_to: plan.ahead.map((a) => a.to / 1000),
        run_version: plan.ahead.map((a) => a.version),
        layout: ENGAGEMENT_LAYOUT,
      },
    );
    return true;
  }
}

/**
 * The hours of the spans where `where` holds, each with the version it summed (customer, instance, hour, version):
 * for the cleanup, the versions kept while a span is kept.
 */
export function spanHoursSql(ch: Pick<ClickHouseService, 'table'>, where = '1'): string {
  return `SELECT customer, instance, toDateTime(arrayJoin(range(toUInt32(r.1), toUInt32(r.2), 3600)), 'UTC') AS hour, r.3 AS version
    FROM (SELECT customer, instance, arrayJoin(arrayZip(run_from, run_to, run_version)) AS r FROM ${ch.table('engagement_spans')}
      WHERE ${where})`;
}

/**
 * The instances whose newest span holds more than `{replaced_most}` hours of `inSpan` at a version older than the
 * hour's newest.
 */
function replacedSql(ch: Pick<ClickHouseService, 'table'>, inSpan: string): string {
  const spans = ch.table('engagement_spans');
  const newest = `(customer, instance, span) IN (
    SELECT customer, instance, max(span) FROM ${spans} WHERE layout = {layout:UInt8} GROUP BY customer, instance)`;
  return `SELECT customer, instance FROM (${spanHoursSql(ch, newest)}) AS s
    INNER JOIN (
      SELECT customer, instance, hour, max(version) AS newest FROM ${ch.table('engagement_versions')}
      WHERE ${inSpan} AND layout = {layout:UInt8} GROUP BY customer, instance, hour
    ) AS v USING (customer, instance, hour)
    WHERE v.newest != s.version
    GROUP BY customer, instance HAVING count() > {replaced_most:UInt32}`;
}
