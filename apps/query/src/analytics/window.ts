import { LRUCache } from 'lru-cache';
import { DateTime, IANAZone } from 'luxon';
import { DomainError } from '@app/errors';

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
/** The longest series an answer holds; a longer one is a 400 naming `interval`. */
export const MAX_BUCKETS = 2_000;

const invalid = (message: string) => new DomainError('invalid', message);

/**
 * Whether a time zone name is valid, remembered: luxon asks Intl anew each time, about a tenth of the main
 * thread's work per analytics request under a flood (bounded: the names come from requests).
 */
const validZones = new LRUCache<string, boolean>({ max: 1_000 });
function isValidZone(tz: string): boolean {
  let valid = validZones.get(tz);
  if (valid === undefined) {
    validZones.set(tz, (valid = IANAZone.isValidZone(tz)));
  }
  return valid;
}

/** A range of whole hours [from, to), in ms since the epoch. */
export interface HourRange {
  from: number;
  to: number;
}

/** The window of an analytics request: whole hours [from, to), and the time zone that sets where days begin. */
export interface AnalyticsWindow extends HourRange {
  tz: string;
}

/** The window parameters as sent (docs/architecture.md, "Counting rules"): `since`, or `from` and `to`, and `tz`. */
export interface WindowParams {
  since?: string;
  from?: string;
  to?: string;
  tz?: string;
}

export type Interval = 'hour' | 'day';

/** The `since` window at `now` (ms): whole hours from the hour of now - since through the current hour. */
export function sinceWindow(now: number, sinceDays: number): HourRange {
  return { from: Math.floor((now - sinceDays * DAY) / HOUR) * HOUR, to: Math.floor(now / HOUR) * HOUR + HOUR };
}

/** The window of the same length just before `w` (compare=previous). */
export function previousWindow<W extends HourRange>(w: W): W {
  return { ...w, from: w.from - (w.to - w.from), to: w.from };
}

/** The previous window of `w`, or a 400 naming `compare` when it starts before the retention (its counts would be cut). */
export function comparedWindow<W extends HourRange>(w: W, now: number, retentionDays: number): W {
  const previous = previousWindow(w);
  if (previous.from < sinceWindow(now, retentionDays).from) {
    throw invalid(
      `compare=previous needs the previous window within the retention of ${retentionDays} days (RETENTION_DAYS); choose a shorter window`,
    );
  }
  return previous;
}

/** The newest of event times in ms (ClickHouse returns Int64 as strings), as ISO-8601 in UTC; undefined for none. */
export function newestIso(times: ReadonlyArray<string | number | null | undefined>): string | undefined {
  const newest = Math.max(...times.map((t) => (t === null || t === undefined ? -Infinity : Number(t))));
  return Number.isFinite(newest) ? new Date(newest).toISOString() : undefined;
}

/** ISO-8601 with the offset of `tz` (Z for UTC), to the second. */
export function isoInZone(ms: number, tz: string): string {
  return DateTime.fromMillis(ms, { zone: tz }).toISO({ suppressMilliseconds: true })!;
}

function parseTime(value: string, name: 'from' | 'to', tz: string): number {
  const parsed = DateTime.fromISO(value, { zone: tz });
  if (!parsed.isValid) {
    throw invalid(`${name} is not a valid date or date-time (${parsed.invalidExplanation ?? parsed.invalidReason})`);
  }
  return parsed.toMillis();
}

/**
 * Every offset of `tz` in the window is a whole number of hours (sampled daily and at both ends: zones change
 * their offset at most a few times a year).
 */
function checkWholeHours(tz: string, { from, to }: HourRange): void {
  const last = to - 1;
  for (let t = from; ; t = Math.min(t + DAY, last)) {
    const offset = DateTime.fromMillis(t, { zone: tz }).offset;
    if (offset % 60 !== 0) {
      throw invalid(`tz ${tz} has an offset of ${offset} minutes in the window; only zones with whole-hour offsets are supported`);
    }
    if (t === last) {
      return;
    }
  }
}

/**
 * The window a request names, or a 400 naming the parameter: `since` (default 1d) ending with the current hour, or
 * `from` (inclusive, rounded down to the hour) and `to` (exclusive, rounded up), dates or date-times in `tz` unless
 * they carry an offset; never before the retention.
 */
export function resolveWindow(p: WindowParams, now: number, retentionDays: number): AnalyticsWindow {
  const tz = p.tz ?? 'UTC';
  if (!isValidZone(tz)) {
    throw invalid(`tz must be an IANA time zone name such as UTC or Europe/Berlin`);
  }
  let range: HourRange;
  if (p.from === undefined && p.to === undefined) {
    const sinceDays = Number((p.since ?? '1d').slice(0, -1));
    if (sinceDays > retentionDays) {
      throw invalid(`since must be at most ${retentionDays}d (the retention)`);
    }
    range = sinceWindow(now, sinceDays);
  } else {
    if (p.since !== undefined) {
      throw invalid('since cannot be combined with from and to: give either since or both from and to');
    }
    if (p.from === undefined) {
      throw invalid('from is required with to');
    }
    if (p.to === undefined) {
      throw invalid('to is required with from');
    }
    const exactFrom = parseTime(p.from, 'from', tz);
    const exactTo = parseTime(p.to, 'to', tz);
    if (exactFrom >= exactTo) {
      throw invalid('from must be before to');
    }
    const from = Math.floor(exactFrom / HOUR) * HOUR;
    const to = Math.ceil(exactTo / HOUR) * HOUR;
    const earliest = sinceWindow(now, retentionDays).from;
    if (from < earliest) {
      throw invalid(`from must not be before ${isoInZone(earliest, tz)}: the retention is ${retentionDays} days (RETENTION_DAYS)`);
    }
    if (to - from > retentionDays * DAY + HOUR) {
      throw invalid(`to must be at most ${retentionDays} days after from: the retention is ${retentionDays} days (RETENTION_DAYS)`);
    }
    range = { from, to };
  }
  checkWholeHours(tz, range);
  return { ...range, tz };
}

/** A series' default interval: `hour` for windows up to 48 hours, else `day`. */
export function defaultInterval({ from, to }: HourRange): Interval {
  return to - from <= 48 * HOUR ? 'hour' : 'day';
}

/**
 * The series' buckets: hours, or days beginning at midnight in the window's zone, as many as touch the window
 * (the first and last day may be partly outside it; only the part inside is counted). Returns the bucket starts
 * followed by the end of the last bucket, or a 400 naming `interval` beyond MAX_BUCKETS.
 */
export function bucketBounds(w: AnalyticsWindow, interval: Interval): number[] {
  if (interval === 'hour') {
    const count = (w.to - w.from) / HOUR;
    if (count > MAX_BUCKETS) {
      throw tooMany(count, interval);
    }
    return Array.from({ length: count + 1 }, (_, i) => w.from + i * HOUR);
  }
  const bounds: number[] = [];
  let day = DateTime.fromMillis(w.from, { zone: w.tz }).startOf('day');
  while (day.toMillis() < w.to) {
    bounds.push(day.toMillis());
    if (bounds.length > MAX_BUCKETS) {
      throw tooMany(Math.ceil((w.to - w.from) / DAY), interval);
    }
    day = day.plus({ days: 1 });
  }
  bounds.push(day.toMillis());
  return bounds;
}

function tooMany(count: number, interval: Interval): DomainError {
  const choice = interval === 'hour' ? 'choose day, or a shorter window' : 'choose a shorter window';
  return invalid(`interval ${interval} gives ${count} buckets for this window; at most ${MAX_BUCKETS} are allowed (${choice})`);
}

/** Adds each hour's values into the bucket that holds the hour; `bounds` as from bucketBounds, hours in ms. */
export function foldIntoBuckets<K extends string>(
  bounds: readonly number[],
  hours: ReadonlyArray<{ hour: number } & Record<K, number>>,
  keys: readonly K[],
): Array<Record<K, number> & { start: number }> {
  const buckets = bounds
    .slice(0, -1)
    .map((start) => ({ start, ...Object.fromEntries(keys.map((k) => [k, 0])) }) as Record<K, number> & { start: number });
  let i = 0;
  for (const h of [...hours].sort((a, b) => a.hour - b.hour)) {
    while (i < buckets.length - 1 && bounds[i + 1] <= h.hour) {
      i++;
    }
    for (const k of keys) {
      (buckets[i][k] as number) += h[k];
    }
  }
  return buckets;
}
