import { may, type ApiError, type Term } from '../api';
import {
  appLink,
  el,
  formatGrowth,
  formatMoney,
  formatNullableRate,
  formatNumber,
  formatPosition,
  formatTermChange,
  REVENUE_LABELS,
  scrollBox,
} from '../dom';
import { PAGE_SIZE, writeFilters, type Filters, type Navigate } from '../filters';
import { handleButton, handlerLink } from '../handle';

/** The terms table and its parts, shared by the overview and the term lists; the status texts also by a term's detail. */

function termLink(f: Filters, t: { id: string; search_phrase: string }, navigate: Navigate): HTMLElement {
  const target = { ...f, view: 'term' as const, id: t.id, page: 0 };
  return appLink(writeFilters(target), t.search_phrase, () => navigate(target));
}

/** Languages a term found nothing in that no entity handles: `not handled in de-ch` ('' when there are none). */
export function unhandledText(status: { unhandled_languages?: string[] }): string {
  const languages = status.unhandled_languages ?? [];
  return languages.length > 0 ? `not handled in ${languages.map((l) => l || '(no language)').join(', ')}` : '';
}

/**
 * The languages of a zero-result term that no entity handles: without a language filter the status lists them; with
 * one, an unhandled term is unhandled in that language.
 */
export function unhandledLanguages(f: Filters, status: NonNullable<Term['status']>): string[] {
  return status.unhandled_languages ?? (f.language ? [f.language] : []);
}

/** Its handlers (each opens its entity), and the languages still unhandled; `unhandled` when no entity handles it. */
function handlersCell(f: Filters, t: Term): Node | string {
  if (!t.status) {
    return '';
  }
  const unhandled = unhandledText(t.status);
  if (t.status.handlers.length === 0) {
    return 'unhandled';
  }
  const links = t.status.handlers.flatMap((h, i) => (i > 0 ? [', ', handlerLink(f, h)] : [handlerLink(f, h)]));
  return el('span', {}, ...links, unhandled ? `; ${unhandled}` : '');
}

/** The Handle button of an unhandled zero-result term (none for a handled one, or without entities:write). */
function handleCell(f: Filters, t: Term, saved: () => void): Node | string {
  if (!t.status || t.status.handled) {
    return '';
  }
  const term = { id: t.id, search_phrase: t.search_phrase, languages: unhandledLanguages(f, t.status) };
  return handleButton(f, term, saved) ?? '';
}

/** What a list's count counts: the top terms count searches that found results, the zero-result terms the others. */
const countLabel = (zero: boolean) => (zero ? 'Searches without results' : 'Searches with results');
/** Whether every zero-result search of a term had a filter: the shop may have the product, the filters hid it. */
function onlyUnderFilters(t: Term): boolean {
  return t.count > 0 && t.with_filters === t.count;
}

/** What "Found nothing" tells apart on the zero-result terms. */
export const WITH_FILTERS_NOTE =
  '"Only under filters": every search of the term that found nothing had a filter, so the filters hid what the ' +
  'term finds (a filter problem); "Also without filters": some found nothing with no filter (a missing product).';

export const COUNTS_NOTE =
  'Top terms count the searches that found results, zero-result terms those that found none; ' +
  "a term's page shows all its searches and both parts.";

/** A list's options: its terms without results (`zero`), with the previous period's figures (`compare`), with the
 * click-through rate, conversion rate and average click position of their tracked searches (`engagement`), with how
 * many of a zero-result term's searches had a filter (`withFilters`, asked for with filters=true), with a Handle
 * button on each unhandled term (`handled`: what to do once one was handled). */
interface TableKind {
  zero: boolean;
  compare: boolean;
  engagement?: boolean;
  withFilters?: boolean;
  handled?: () => void;
}

/** A column of a terms table: its heading, whether it holds numbers (aligned right), and its cell of a term. */
interface Column {
  head: string;
  num?: boolean;
  cell: (t: Term) => Node | string;
}

const ENGAGEMENT_COLUMNS: Column[] = [
  { head: 'Click-through rate', num: true, cell: (t) => formatNullableRate(t.click_through_rate) },
  { head: 'Conversion rate', num: true, cell: (t) => formatNullableRate(t.conversion_rate) },
  { head: 'Average click position', num: true, cell: (t) => formatPosition(t.average_click_position) },
  // Every conversion's value, then the purchases' alone (REVENUE_LABELS).
  { head: REVENUE_LABELS.revenue, num: true, cell: (t) => formatMoney(t.revenue) },
  { head: REVENUE_LABELS.purchase_revenue, num: true, cell: (t) => formatMoney(t.purchase_revenue) },
];

function columns(f: Filters, { zero, compare, engagement, withFilters, handled }: TableKind, navigate: Navigate): Column[] {
  return [
    { head: 'Term', cell: (t) => termLink(f, t, navigate) },
    { head: countLabel(zero), num: true, cell: (t) => formatNumber(t.count) },
    ...(compare
      ? [
          { head: 'Previous period', num: true, cell: (t: Term) => formatNumber(t.previous_count ?? 0) },
          { head: 'Growth', num: true, cell: (t: Term) => formatGrowth(t.count - (t.previous_count ?? 0)) },
          { head: 'Change', num: true, cell: (t: Term) => formatTermChange(t.change) },
        ]
      : []),
    // The zero-result searches that had a filter: a term that found nothing only under filters is a filter problem.
    ...(zero && withFilters
      ? [
          { head: 'With filters', num: true, cell: (t: Term) => formatNumber(t.with_filters ?? 0) },
          { head: 'Found nothing', cell: (t: Term) => (onlyUnderFilters(t) ? 'Only under filters' : 'Also without filters') },
        ]
      : []),
    ...(zero ? [{ head: 'Handled by', cell: (t: Term) => handlersCell(f, t) }] : []),
    ...(zero && handled && may('entities:write') ? [{ head: 'Action', cell: (t: Term) => handleCell(f, t, handled) }] : []),
    ...(engagement ? ENGAGEMENT_COLUMNS : []),
  ];
}

/** A table of terms: a row per term, the column `sorted` by marked as the order (descending). */
function table(title: string, terms: Term[], cols: Column[], sorted: string): HTMLElement {
  const head = el(
    'tr',
    {},
    ...cols.map((c) =>
      el('th', { scope: 'col', class: c.num ? 'num' : undefined, 'aria-sort': c.head === sorted ? 'descending' : undefined }, c.head),
    ),
  );
  const rows = terms.map((t) => el('tr', {}, ...cols.map((c) => el('td', { class: c.num ? 'num' : undefined }, c.cell(t)))));
  return scrollBox(el('table', {}, el('caption', {}, title), el('thead', {}, head), el('tbody', {}, ...rows)), title);
}

/** The terms, by count (most searched first) or, with compare, by growth: count - previous count, largest first. */
export function termsTable(f: Filters, caption: string, terms: Term[], kind: TableKind, navigate: Navigate): HTMLElement {
  if (terms.length === 0) {
    return el('p', { class: 'empty' }, `${caption}: none in this period.`);
  }
  const title = kind.compare ? `${caption}, largest growth in searches first` : caption;
  return table(title, terms, columns(f, kind, navigate), kind.compare ? 'Growth' : countLabel(kind.zero));
}

/** What the list of searches without clicks counts: the tracked searches (sent with an id, with results). */
export const NO_CLICKS_NOTE =
  'Tracked searches are the searches sent with an id that found results, the ones a shopper could click. ' +
  'The terms with the most of them that got no click come first: the results shoppers did not find worth a click.';

/**
 * The relevance to-do list: per term its tracked searches, those without a click (the order, largest first) and its
 * click-through rate.
 */
export function noClicksTable(f: Filters, caption: string, terms: Term[], navigate: Navigate): HTMLElement {
  if (terms.length === 0) {
    return el('p', { class: 'empty' }, `${caption}: none in this period.`);
  }
  const tracked = (t: Term) => t.tracked_searches ?? 0;
  const cols: Column[] = [
    { head: 'Term', cell: (t) => termLink(f, t, navigate) },
    { head: 'Tracked searches', num: true, cell: (t) => formatNumber(tracked(t)) },
    { head: 'Searches without clicks', num: true, cell: (t) => formatNumber(tracked(t) - (t.clicked_searches ?? 0)) },
    ENGAGEMENT_COLUMNS[0],
  ];
  return table(caption, terms, cols, 'Searches without clicks');
}

/** What the lists (terms, breakdowns) need of the page: going to other filters, the default instance (CSV names), signing out. */
export interface ListPage {
  navigate: Navigate;
  defaultInstance: () => string;
  signedOut: (err: ApiError) => void;
}

/** Previous and next page, and which rows of how many are shown (`none` without any). */
export function pager(f: Filters, start: number, total: number, navigate: Navigate, none = 'No terms'): HTMLElement {
  const prev = el('button', { type: 'button', disabled: f.page === 0 }, 'Previous page');
  const next = el('button', { type: 'button', disabled: start + PAGE_SIZE >= total }, 'Next page');
  prev.addEventListener('click', () => navigate({ ...f, page: f.page - 1 }));
  next.addEventListener('click', () => navigate({ ...f, page: f.page + 1 }));
  return el(
    'div',
    { class: 'pager' },
    prev,
    el(
      'span',
      { class: 'range' },
      total === 0 ? none : `${formatNumber(start + 1)}–${formatNumber(Math.min(start + PAGE_SIZE, total))} of ${formatNumber(total)}`,
    ),
    next,
  );
}
