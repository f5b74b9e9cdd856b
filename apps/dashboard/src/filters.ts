/** The view and its filters, kept in the URL's query so that a view can be bookmarked and shared. */

export type View = 'overview' | 'terms' | 'zero' | 'noclicks' | 'term' | 'breakdown';
/** The paged term lists: top terms, zero-result terms and searches without clicks (the relevance to-do list). */
export type ListView = 'terms' | 'zero' | 'noclicks';
/**
 * The dimensions of the Breakdowns view: filter attributes (an attribute's values with `attribute`), the filter sets
 * of the searches that found nothing, countries and analytics tags.
 */
export type Dimension = 'filter_attribute' | 'filter_set' | 'country' | 'tag';
const DIMENSIONS: readonly Dimension[] = ['filter_attribute', 'filter_set', 'country', 'tag'];
export const PRESETS: Array<[string, string]> = [
  ['1d', 'Last 24 hours'],
  ['7d', 'Last 7 days'],
  ['30d', 'Last 30 days'],
];

export interface Filters {
  view: View;
  /** A preset (`1d`, `7d`, `30d`) or `custom` (then from/to). */
  period: string;
  from: string;
  to: string;
  tz: string;
  language: string;
  bots: boolean;
  instance: string;
  sort: 'count' | 'rising';
  unhandled: boolean;
  page: number;
  /** The term of the detail view. */
  id: string;
  /** The Breakdowns view's dimension. */
  by: Dimension;
  /** The filter attribute whose values the Breakdowns view lists ('' for the attributes themselves). */
  attribute: string;
  /** The Breakdowns view's order: most searched first, or least used first (`asc`). */
  order: 'desc' | 'asc';
}

export const PAGE_SIZE = 25;

/** Goes to other filters: a new history entry, or in place of the current one with `replace`, then renders them. */
export type Navigate = (f: Filters, replace?: boolean) => void;

/** The browser's zone, or UTC where its offset is not a whole number of hours (the API serves whole-hour zones only). */
export function browserZone(): string {
  const now = new Date();
  const winter = new Date(now.getFullYear(), 0, 1).getTimezoneOffset();
  const summer = new Date(now.getFullYear(), 6, 1).getTimezoneOffset();
  if (winter % 60 !== 0 || summer % 60 !== 0) {
    return 'UTC';
  }
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

export function readFilters(search = location.search): Filters {
  const q = new URLSearchParams(search);
  const view = q.get('view');
  return {
    view: view === 'terms' || view === 'zero' || view === 'noclicks' || view === 'term' || view === 'breakdown' ? view : 'overview',
    period: q.get('period') ?? '7d',
    from: q.get('from') ?? '',
    to: q.get('to') ?? '',
    tz: q.get('tz') ?? browserZone(),
    language: (q.get('language') ?? '').toLowerCase(), // the service compares languages lower-cased
    bots: q.get('bots') === 'true',
    instance: q.get('instance') ?? '',
    sort: q.get('sort') === 'rising' ? 'rising' : 'count',
    unhandled: q.get('unhandled') === 'true',
    page: Math.max(0, Number(q.get('page') ?? 0) || 0),
    id: q.get('id') ?? '',
    by: DIMENSIONS.find((d) => d === q.get('by')) ?? 'filter_attribute',
    attribute: q.get('attribute') ?? '',
    order: q.get('order') === 'asc' ? 'asc' : 'desc',
  };
}

export function writeFilters(f: Filters): string {
  const q = new URLSearchParams();
  q.set('view', f.view);
  q.set('period', f.period);
  if (f.period === 'custom') {
    q.set('from', f.from);
    q.set('to', f.to);
  }
  q.set('tz', f.tz);
  if (f.language) {
    q.set('language', f.language);
  }
  if (f.bots) {
    q.set('bots', 'true');
  }
  if (f.instance) {
    q.set('instance', f.instance);
  }
  if (f.sort !== 'count') {
    q.set('sort', f.sort);
  }
  if (f.unhandled) {
    q.set('unhandled', 'true');
  }
  if (f.page > 0) {
    q.set('page', String(f.page));
  }
  if (f.view === 'term') {
    q.set('id', f.id);
  }
  if (f.view === 'breakdown') {
    q.set('by', f.by);
    if (f.by === 'filter_attribute' && f.attribute) {
      q.set('attribute', f.attribute);
    }
    if (f.order === 'asc') {
      q.set('order', 'asc');
    }
  }
  return `?${q.toString()}`;
}

/** The API query of the window and filters (docs/architecture.md, "Counting rules"). */
export function apiWindow(f: Filters): URLSearchParams {
  const q = new URLSearchParams();
  if (f.period === 'custom') {
    q.set('from', f.from);
    q.set('to', f.to);
  } else {
    q.set('since', f.period);
  }
  q.set('tz', f.tz);
  if (f.language) {
    q.set('language', f.language);
  }
  if (f.bots) {
    q.set('includeBotTraffic', 'true');
  }
  return q;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * The window of the filters at `now` (ms), as the API resolves it: a preset's whole hours through the current one;
 * a custom range's from/to are dates, whole days in tz, given as from = -Infinity and to = +Infinity (never cut).
 */
export function windowOf(f: Filters, now: number): { from: number; to: number } {
  const days = /^(\d+)d$/.exec(f.period);
  if (f.period === 'custom' || !days) {
    return { from: -Infinity, to: Infinity };
  }
  return { from: Math.floor((now - Number(days[1]) * DAY) / HOUR) * HOUR, to: Math.floor(now / HOUR) * HOUR + HOUR };
}

/** The day before a YYYY-MM-DD date. */
function dayBefore(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) - DAY).toISOString().slice(0, 10);
}

/**
 * The last day of a custom range ending at `to` (exclusive): the day before when `to` is a date or its midnight, else
 * the day of `to` (a date-time such as 2026-11-23T10:00). A `to` that names no day is kept as written.
 */
function lastDay(to: string): string {
  if (!/^\d{4}-\d{2}-\d{2}/.test(to)) {
    return to;
  }
  return /^\d{4}-\d{2}-\d{2}(T00(:00(:00(\.0+)?)?)?)?$/.test(to) ? dayBefore(to.slice(0, 10)) : to.slice(0, 10);
}

const LIST_FILE_NAMES: Record<ListView, string> = {
  terms: 'top-terms',
  zero: 'zero-result-terms',
  noclicks: 'searches-without-clicks',
};

const BREAKDOWN_FILE_NAMES: Record<Dimension, string> = {
  filter_attribute: 'filter-attributes',
  filter_set: 'zero-result-filter-sets',
  country: 'countries',
  tag: 'tags',
};

/** A file name part: letters, digits, '.', '_' and '-' only. */
const part = (text: string) => text.replace(/[^A-Za-z0-9._-]+/g, '-');

/** What a CSV file holds: a term list, or the Breakdowns view's table (an attribute's values: filter-values-brand). */
function tableFileName(f: Filters, table: ListView | 'breakdown'): string {
  if (table !== 'breakdown') {
    return LIST_FILE_NAMES[table];
  }
  return f.by === 'filter_attribute' && f.attribute ? `filter-values-${f.attribute}` : BREAKDOWN_FILE_NAMES[f.by];
}

/**
 * The name of a table's CSV download: the table, the first and last day of the period in the chosen zone (a custom
 * range's `to` is exclusive, so its last day is the one before; a preset's last day is today), then the filters
 * that narrow it: the language, `with-bots`, `unhandled`, `rising`, `least-used`, and the instance unless it is the
 * default one. E.g. zero-result-terms_2026-11-01_2026-11-30_de_with-bots.csv.
 */
export function csvFileName(
  f: Filters,
  table: ListView | 'breakdown',
  defaultInstance: string,
  isoDay: (ms: number) => string,
  now = Date.now(),
): string {
  const { from, to } = windowOf(f, now);
  const days = f.period === 'custom' ? [f.from.slice(0, 10), lastDay(f.to)] : [isoDay(from), isoDay(to - 1)];
  const parts = [
    tableFileName(f, table),
    ...days,
    f.language,
    f.bots ? 'with-bots' : '',
    table === 'zero' && f.unhandled ? 'unhandled' : '',
    (table === 'terms' || table === 'zero') && f.sort === 'rising' ? 'rising' : '',
    table === 'breakdown' && f.order === 'asc' ? 'least-used' : '',
    f.instance && f.instance !== defaultInstance ? f.instance : '',
  ];
  return `${parts.filter(Boolean).map(part).join('_')}.csv`;
}
