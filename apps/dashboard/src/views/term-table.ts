import type { Term } from '../api';
import { appLink, el, formatGrowth, formatNumber, formatTermChange, scrollBox } from '../dom';
import { writeFilters, type Filters, type Navigate } from '../filters';

/** The terms table and its parts, shared by the overview and the term lists; the handler text also by a term's detail. */

function termLink(f: Filters, t: { id: string; search_phrase: string }, navigate: Navigate): HTMLElement {
  const target = { ...f, view: 'term' as const, id: t.id, page: 0 };
  return appLink(writeFilters(target), t.search_phrase, () => navigate(target));
}

export const handlerText = (h: { type: string; id: string }) => `${h.type}: ${h.id}`;

function handlersText(t: { status: Term['status'] }): string {
  if (!t.status) {
    return '';
  }
  return t.status.handled ? t.status.handlers.map(handlerText).join(', ') : 'unhandled';
}

/** What a list's count counts: the top terms count searches that found results, the zero-result terms the others. */
const countLabel = (zero: boolean) => (zero ? 'Searches without results' : 'Searches with results');
export const COUNTS_NOTE =
  'Top terms count the searches that found results, zero-result terms those that found none; ' +
  "a term's page shows all its searches and both parts.";

/** A list's options: its terms without results (`zero`), and with the previous period's figures (`compare`). */
interface TableKind {
  zero: boolean;
  compare: boolean;
}

function headRow({ zero, compare }: TableKind): HTMLElement {
  const count = countLabel(zero);
  const head = ['Term', count, ...(compare ? ['Previous period', 'Growth', 'Change'] : []), ...(zero ? ['Handled by'] : [])];
  const numeric = new Set([count, 'Previous period', 'Growth', 'Change']);
  const sorted = compare ? 'Growth' : count;
  return el(
    'tr',
    {},
    ...head.map((h) =>
      el('th', { scope: 'col', class: numeric.has(h) ? 'num' : undefined, 'aria-sort': h === sorted ? 'descending' : undefined }, h),
    ),
  );
}

function termRow(f: Filters, t: Term, { zero, compare }: TableKind, navigate: Navigate): HTMLElement {
  return el(
    'tr',
    {},
    el('td', {}, termLink(f, t, navigate)),
    el('td', { class: 'num' }, formatNumber(t.count)),
    ...(compare
      ? [
          el('td', { class: 'num' }, formatNumber(t.previous_count ?? 0)),
          el('td', { class: 'num' }, formatGrowth(t.count - (t.previous_count ?? 0))),
          el('td', { class: 'num' }, formatTermChange(t.change)),
        ]
      : []),
    ...(zero ? [el('td', {}, handlersText(t))] : []),
  );
}

/** The terms, by count (most searched first) or, with compare, by growth: count - previous count, largest first. */
export function termsTable(f: Filters, caption: string, terms: Term[], kind: TableKind, navigate: Navigate): HTMLElement {
  if (terms.length === 0) {
    return el('p', { class: 'empty' }, `${caption}: none in this period.`);
  }
  const title = kind.compare ? `${caption}, largest growth in searches first` : caption;
  const table = el(
    'table',
    {},
    el('caption', {}, title),
    el('thead', {}, headRow(kind)),
    el('tbody', {}, ...terms.map((t) => termRow(f, t, kind, navigate))),
  );
  return scrollBox(table, title);
}
