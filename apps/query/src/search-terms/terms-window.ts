const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const date = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** A range of hours [from, to), in ms since the epoch (UTC). */
export interface HourRange {
  from: number;
  to: number;
}

/**
 * The window of GET /search-terms and where its counts come from: whole UTC days from the daily rollup, the hours
 * before the first whole day and those of the current day from the hourly one. The parts never overlap and
 * together cover [from, to) exactly, so their sum equals a raw count over the window.
 */
export interface TermsWindow {
  /** Start of the window's first hour: the hour of now - since. */
  from: number;
  /** End of the window (exclusive): the end of the current hour. */
  to: number;
  /** Whole UTC days [from, to) as dates (YYYY-MM-DD) of the daily rollup; absent when the window holds none. */
  days?: { from: string; to: string };
  /** Hours of the hourly rollup (empty ranges possible). */
  hours: HourRange[];
}

/** The window of `since` = `sinceDays` days at `now` (ms): whole hours from the hour of now - since through the current hour. */
export function termsWindow(now: number, sinceDays: number): TermsWindow {
  const from = Math.floor((now - sinceDays * DAY) / HOUR) * HOUR;
  const to = Math.floor(now / HOUR) * HOUR + HOUR;
  const firstDay = Math.ceil(from / DAY) * DAY;
  const today = Math.floor((to - HOUR) / DAY) * DAY;
  if (firstDay >= today) return { from, to, hours: [{ from, to }] };
  return {
    from,
    to,
    days: { from: date(firstDay), to: date(today) },
    hours: [
      { from, to: firstDay },
      { from: today, to },
    ],
  };
}
