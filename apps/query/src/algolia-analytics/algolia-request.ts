import { MAX_PHRASE_LENGTH, normalisePhrase } from '@app/contracts';
import { DomainError } from '@app/errors';
import { parseTags, type TagsFilter } from '../analytics/tags-param';
import { sinceWindow } from '../analytics/window';

/** The query parameters of Algolia's Analytics API (docs/algolia.md); each route takes those its operation declares. */
export type AlgoliaParam =
  | 'index'
  | 'startDate'
  | 'endDate'
  | 'limit'
  | 'offset'
  | 'orderBy'
  | 'direction'
  | 'clickAnalytics'
  | 'revenueAnalytics'
  | 'tags'
  | 'search';

/** The orders of GET /2/searches; all but searchCount need clickAnalytics. */
export const ORDER_BY = ['searchCount', 'clickThroughRate', 'conversionRate', 'averageClickPosition'] as const;
export type OrderBy = (typeof ORDER_BY)[number];

/** The parameters of a window, and of a window with tags. */
export const WINDOW: readonly AlgoliaParam[] = ['index', 'startDate', 'endDate', 'tags'];
/** A window's list. */
export const LIST: readonly AlgoliaParam[] = [...WINDOW, 'limit', 'offset'];
/** A list that one phrase's searches may narrow (the filters). */
export const PHRASE_LIST: readonly AlgoliaParam[] = [...LIST, 'search'];
/** The top searches: a list in an order, with the click and revenue figures on demand. */
export const TOP_SEARCHES: readonly AlgoliaParam[] = [...LIST, 'orderBy', 'direction', 'clickAnalytics', 'revenueAnalytics'];
/** The top hits: a list one phrase's searches may narrow, with the click and revenue figures on demand. */
export const TOP_HITS: readonly AlgoliaParam[] = [...PHRASE_LIST, 'clickAnalytics', 'revenueAnalytics'];
/** The status: the index alone. */
export const INDEX_ONLY: readonly AlgoliaParam[] = ['index'];

/** A request to `GET /2/...`, checked: every parameter the route takes, with its default. */
export interface AlgoliaRequest {
  index: string;
  /** `YYYY-MM-DD`, both inclusive, whole UTC days. */
  startDate: string;
  endDate: string;
  limit: number;
  offset: number;
  orderBy: OrderBy;
  direction: 'asc' | 'desc';
  clickAnalytics: boolean;
  /** Implies clickAnalytics. */
  revenueAnalytics: boolean;
  tags?: TagsFilter;
  /** Normalised as the lists' phrases. */
  search?: string;
}

const DAY = 86_400_000;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const MAX_LIMIT = 1000;
/** The window without startDate: endDate and the seven days before it (Algolia's default). */
const DEFAULT_DAYS_BEFORE = 7;

function invalid(message: string): DomainError {
  return new DomainError('invalid', message);
}

/** Midnight UTC of a `YYYY-MM-DD` date, or a 400 naming the parameter. */
function dayOf(name: string, value: string): number {
  const ms = DATE.test(value) ? Date.parse(`${value}T00:00:00Z`) : NaN;
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== value) {
    throw invalid(`${name} must be a date in the form YYYY-MM-DD, e.g. 2026-11-01`);
  }
  return ms;
}

const dateOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

function integer(name: string, value: string, min: number, max: number): number {
  const n = /^\d{1,10}$/.test(value) ? Number(value) : NaN;
  if (!(n >= min && n <= max)) {
    throw invalid(`${name} must be an integer from ${min} to ${max}`);
  }
  return n;
}

function flag(name: string, value: string): boolean {
  if (value !== 'true' && value !== 'false') {
    throw invalid(`${name} must be true or false`);
  }
  return value === 'true';
}

/**
 * The query string of a `GET /2/...` request, checked against what its route takes (`allowed`): a 400 naming the
 * parameter for a value out of its form or range, a parameter given twice, one the route does not take, or a
 * window beyond the retention. Parameters named `x-algolia-*` (the client's agent, credentials in the query string)
 * are not the route's and are ignored.
 */
export function algoliaRequest(
  query: Record<string, unknown>,
  allowed: readonly AlgoliaParam[],
  now: number,
  retentionDays: number,
): AlgoliaRequest {
  const sent = new Map<AlgoliaParam, string>();
  for (const [name, value] of Object.entries(query)) {
    if (name.toLowerCase().startsWith('x-algolia-')) {
      continue;
    }
    if (!(allowed as readonly string[]).includes(name)) {
      throw invalid(`${name} is not a parameter of this route; it takes ${allowed.join(', ')}`);
    }
    if (typeof value !== 'string') {
      throw invalid(`${name} must be given once, as ${name}=value (not repeated, not ${name}[]= or ${name}[key]=)`);
    }
    sent.set(name as AlgoliaParam, value);
  }
  const index = sent.get('index');
  if (index === undefined || index === '') {
    throw invalid('index is required: an instance, or an Algolia index name an instance declares (algoliaIndexes)');
  }
  const window = algoliaWindow(sent.get('startDate'), sent.get('endDate'), now, retentionDays);
  const orderBy = (sent.get('orderBy') ?? 'searchCount') as OrderBy;
  if (!ORDER_BY.includes(orderBy)) {
    throw invalid(`orderBy must be one of ${ORDER_BY.join(', ')}`);
  }
  const direction = sent.get('direction') ?? 'desc';
  if (direction !== 'asc' && direction !== 'desc') {
    throw invalid('direction must be asc or desc');
  }
  const revenueAnalytics = flag('revenueAnalytics', sent.get('revenueAnalytics') ?? 'false');
  const clickAnalytics = revenueAnalytics || flag('clickAnalytics', sent.get('clickAnalytics') ?? 'false');
  if (orderBy !== 'searchCount' && !clickAnalytics) {
    throw invalid(`orderBy=${orderBy} needs clickAnalytics=true`);
  }
  const tags = sent.get('tags');
  if (tags !== undefined && clickAnalytics) {
    throw invalid('tags cannot be combined with clickAnalytics or revenueAnalytics: click and conversion figures are not kept per tag');
  }
  const search = sent.get('search');
  if (search !== undefined && [...search].length > MAX_PHRASE_LENGTH) {
    throw invalid(`search is longer than ${MAX_PHRASE_LENGTH} characters`);
  }
  const phrase = search === undefined ? undefined : normalisePhrase(search);
  if (phrase === '') {
    throw invalid('search is empty once normalised (lower case, spaces collapsed)');
  }
  return {
    index,
    ...window,
    limit: integer('limit', sent.get('limit') ?? '10', 1, MAX_LIMIT),
    offset: integer('offset', sent.get('offset') ?? '0', 0, 1_000_000_000),
    orderBy,
    direction,
    clickAnalytics,
    revenueAnalytics,
    tags: parseTags(tags),
    search: phrase,
  };
}

/**
 * `startDate` and `endDate`, whole UTC days, both inclusive: endDate defaults to today, startDate to endDate minus
 * seven days. A 400 for startDate after endDate, an endDate after tomorrow, or a first day the retention no longer
 * holds whole.
 */
function algoliaWindow(start: string | undefined, end: string | undefined, now: number, retentionDays: number) {
  const today = Math.floor(now / DAY) * DAY;
  const endDay = end === undefined ? today : dayOf('endDate', end);
  // Tomorrow (UTC) is still today for a client east of UTC; later days have no searches yet.
  if (endDay > today + DAY) {
    throw invalid(`endDate must not be after ${dateOf(today + DAY)}: later days have no searches yet`);
  }
  const startDay = start === undefined ? endDay - DEFAULT_DAYS_BEFORE * DAY : dayOf('startDate', start);
  if (startDay > endDay) {
    throw invalid('startDate must not be after endDate');
  }
  const earliest = sinceWindow(now, retentionDays).from;
  if (startDay < earliest) {
    const first = Math.ceil(earliest / DAY) * DAY;
    throw invalid(`startDate must not be before ${dateOf(first)}: the retention is ${retentionDays} days (RETENTION_DAYS)`);
  }
  return { startDate: dateOf(startDay), endDate: dateOf(endDay) };
}

/** The native window of whole UTC days [startDate, endDate]: `from` the first midnight, `to` the one after the last day. */
export function nativeWindow(req: Pick<AlgoliaRequest, 'startDate' | 'endDate'>): { from: string; to: string; tz: string } {
  return { from: req.startDate, to: dateOf(Date.parse(`${req.endDate}T00:00:00Z`) + DAY), tz: 'UTC' };
}
