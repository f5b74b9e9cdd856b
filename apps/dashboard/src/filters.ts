/** The view and its filters, kept in the URL's query so that a view can be bookmarked and shared. */

export type View = 'overview' | 'terms' | 'zero' | 'term';
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
}

export const PAGE_SIZE = 25;

/** The browser's zone, or UTC where its offset is not a whole number of hours (the API serves whole-hour zones only). */
export function browserZone(): string {
  const now = new Date();
  const winter = new Date(now.getFullYear(), 0, 1).getTimezoneOffset();
  const summer = new Date(now.getFullYear(), 6, 1).getTimezoneOffset();
  if (winter % 60 !== 0 || summer % 60 !== 0) return 'UTC';
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

export function readFilters(search = location.search): Filters {
  const q = new URLSearchParams(search);
  const view = q.get('view');
  return {
    view: view === 'terms' || view === 'zero' || view === 'term' ? view : 'overview',
    period: q.get('period') ?? '7d',
    from: q.get('from') ?? '',
    to: q.get('to') ?? '',
    tz: q.get('tz') ?? browserZone(),
    language: q.get('language') ?? '',
    bots: q.get('bots') === 'true',
    instance: q.get('instance') ?? '',
    sort: q.get('sort') === 'rising' ? 'rising' : 'count',
    unhandled: q.get('unhandled') === 'true',
    page: Math.max(0, Number(q.get('page') ?? 0) || 0),
    id: q.get('id') ?? '',
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
  if (f.language) q.set('language', f.language);
  if (f.bots) q.set('bots', 'true');
  if (f.instance) q.set('instance', f.instance);
  if (f.sort !== 'count') q.set('sort', f.sort);
  if (f.unhandled) q.set('unhandled', 'true');
  if (f.page > 0) q.set('page', String(f.page));
  if (f.view === 'term') q.set('id', f.id);
  return `?${q.toString()}`;
}

/** The API query of the window and filters (DESIGN.md section 10). */
export function apiWindow(f: Filters): URLSearchParams {
  const q = new URLSearchParams();
  if (f.period === 'custom') {
    q.set('from', f.from);
    q.set('to', f.to);
  } else {
    q.set('since', f.period);
  }
  q.set('tz', f.tz);
  if (f.language) q.set('language', f.language);
  if (f.bots) q.set('includeBotTraffic', 'true');
  return q;
}
