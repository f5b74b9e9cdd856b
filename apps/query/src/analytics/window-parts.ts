import { DAY, HOUR, type HourRange } from './window';

const date = (ms: number) => new Date(ms).toISOString().slice(0, 10);

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
