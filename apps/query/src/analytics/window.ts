import { LRUCache } from 'lru-cache';
import { DateTime, IANAZone } from 'luxon';
import { DomainError } from '@app/errors';

export const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** The longest series an answer holds; a longer one is a 400 naming `interval`. */
export const MAX_BUCKETS = 2_000;

const date = (ms: number) => new Date(ms).toISOString().slice(0, 10);
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

/**
 * Where the counts of a window come from: whole weeks (Monday to Monday, UTC) from a weekly rollup where the caller
 * has one, whole UTC days from a daily rollup, plus and minus hours of an hourly one. The partial UTC day at the
 * window's end is read either as its hours inside the window, or as the whole day minus its hours after the window
 * (today minus its future hours, usually empty), whichever reads fewer rows (partialDayCost); when the window ends
 * in the current week, that week is read whole minus its hours after the window (the future: they hold no events).
 * The partial day at the start is always read as its hours. The parts add up to [from, to) exactly (every hour
 * inside counted once, every hour outside added and subtracted or never read), so their sum equals a raw count
 * over the window whichever way is chosen.
 *
 * Why never the hours before the window: rows leave the rollups by TTL (RETENTION_DAYS) at the next merge, a day's
 * daily row at the day's start plus the retention, each hourly row an hour later than the one before, a week's
 * weekly row when its last day leaves (so a week read whole, its Monday inside the window, is never gone). A window
 * may start at the retention's start, where the hours before it (and the daily row of its first day) may be gone or
 * not; the hours after a window outlive the window's own rows, and a daily row ends with the first of its hours.
 */
export interface WindowParts {
  /** Whole weeks [from, to) as Monday dates (YYYY-MM-DD); absent when the window reads none. */
  weeks?: DayRange;
  /** Whole UTC days as dates, each range [from, to) non-empty: before the weeks and after them. */
  days: DayRange[];
  /** Hours of the hourly rollup to add (non-empty ranges). */
  hours: HourRange[];
  /** Hours of the hourly rollup to subtract: hours after the window of its last day or week (non-empty ranges). */
  minus: HourRange[];
}

/** Dates [from, to), YYYY-MM-DD. */
export interface DayRange {
  from: string;
  to: string;
}

const WEEK = 7 * DAY;
/** Monday 00:00 UTC of the week that holds `t` (ms; the epoch began on a Thursday), as ClickHouse's toMonday. */
const mondayOf = (t: number) => Math.floor((t + 3 * DAY) / WEEK) * WEEK - 3 * DAY;

/** Hours of `r` that can hold events at `now`: none starts after now (events are at most 5 minutes ahead of it). */
function hoursWithData(r: HourRange, now: number): number {
  return Math.max(0, Math.min(r.to, Math.ceil(now / HOUR) * HOUR) - r.from) / HOUR;
}

/**
 * Rows read for a partial day, in units of one hour's hourly rows, each way: its hours inside the window, or the
 * day's daily rows plus its hours outside, plus a fixed cost for reading one more rollup in the query. A long-tailed
 * log repeats few phrases from hour to hour: on the benchmark data the daily rows of h hours of data are about
 * h^0.72 hours' rows (measured: 24 hours 10, 8 hours 4.9, 3 hours 2.4), and one more source of rows in a query
 * costs about as much as 5 hours' rows (2 ms at 1 day: the 25 hourly rows of since=1d measured 14.8 ms, today's
 * daily rows plus yesterday's hours 18.0 ms, though they are 9 % fewer).
 */
function partialDayCost(inside: HourRange, outside: HourRange[], now: number): { hourly: number; subtracted: number } {
  const hourly = hoursWithData(inside, now);
  const out = outside.reduce((sum, r) => sum + hoursWithData(r, now), 0);
  return { hourly, subtracted: Math.pow(hourly + out, 0.72) + out + 5 };
}

/**
 * `now` (ms) only weighs the choice (hours after it hold no events); the parts are exact for any value. With
 * `subtract` false, edge days are always read as their hours inside the window and whole weeks only (no `minus`).
 * With `weekly` false, no weeks (the caller has no weekly rollup).
 */
export function windowParts({ from, to }: HourRange, now: number = Infinity, subtract = true, weekly = false): WindowParts {
  const firstDay = Math.floor(from / DAY) * DAY;
  const endDay = Math.ceil(to / DAY) * DAY;
  const hours: HourRange[] = [];
  const minus: HourRange[] = [];
  const wholeDays = (dayFrom: number, dayTo: number): DayRange[] => (dayFrom < dayTo ? [{ from: date(dayFrom), to: date(dayTo) }] : []);
  let dayFrom = firstDay;
  let dayTo = endDay;
  const choose = (inside: HourRange, outside: HourRange[]): boolean => {
    const cost = partialDayCost(inside, outside, now);
    if (subtract && cost.subtracted < cost.hourly) {
      minus.push(...outside.filter((r) => r.to > r.from));
      return true;
    }
    hours.push(inside);
    return false;
  };
  if (endDay - firstDay === DAY) {
    // One UTC day, partial on one side or both: the whole day only when the window starts with it.
    if (from === firstDay && to === endDay) {
      return { days: wholeDays(firstDay, endDay), hours, minus };
    }
    if (from > firstDay) {
      return { days: [], hours: [{ from, to }], minus };
    }
    const whole = choose({ from, to }, [{ from: to, to: endDay }]);
    return { days: whole ? wholeDays(firstDay, endDay) : [], hours, minus };
  }
  if (from > firstDay) {
    hours.push({ from, to: firstDay + DAY });
    dayFrom = firstDay + DAY;
  }
  const lastWeek = mondayOf(endDay - DAY);
  const lastWeekEnd = lastWeek + WEEK;
  if (weekly && subtract && lastWeek >= dayFrom && to < lastWeekEnd && hoursWithData({ from: to, to: lastWeekEnd }, now) === 0) {
    // The window ends in the current week: the whole week, minus its hours after the window (no events yet).
    minus.push({ from: to, to: lastWeekEnd });
    dayTo = lastWeekEnd;
  } else if (to < endDay && !choose({ from: endDay - DAY, to }, [{ from: to, to: endDay }])) {
    dayTo = endDay - DAY;
  }
  const weekFrom = mondayOf(dayFrom + WEEK - 1);
  const weekTo = mondayOf(dayTo);
  if (!weekly || weekFrom >= weekTo) {
    return { days: wholeDays(dayFrom, dayTo), hours, minus };
  }
  return {
    weeks: { from: date(weekFrom), to: date(weekTo) },
    days: [...wholeDays(dayFrom, weekFrom), ...wholeDays(weekTo, dayTo)],
    hours,
    minus,
  };
}

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
