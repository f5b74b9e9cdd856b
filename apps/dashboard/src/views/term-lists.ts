import { getJson, type Term } from '../api';
import { csvButton as downloadButton } from '../csv';
import { el, isoDayIn } from '../dom';
import { PAGE_SIZE, apiWindow, csvFileName, type Filters, type ListView } from '../filters';
import { COUNTS_NOTE, NO_CLICKS_NOTE, WITH_FILTERS_NOTE, noClicksTable, pager, termsTable, type ListPage } from './term-table';

export type { ListPage };

/**
 * The API query of a list: the top terms with their engagement figures, the zero-result terms with how many of their
 * searches had a filter (filters=true; unhandled only with the switch), the searches without clicks
 * (GET /search-terms?hits=true&sort=no_clicks&engagement=true).
 */
function listQuery(f: Filters, list: ListView): URLSearchParams {
  const q = apiWindow(f);
  if (list === 'noclicks') {
    q.set('hits', 'true');
    q.set('sort', 'no_clicks');
    q.set('engagement', 'true');
    return q;
  }
  if (list === 'zero') {
    q.set('hits', 'false');
    q.set('filters', 'true');
  }
  if (list === 'zero' && f.unhandled) {
    q.set('handled', 'false');
  }
  if (f.sort === 'rising') {
    q.set('sort', 'rising');
  }
  if (list === 'terms') {
    q.set('engagement', 'true');
  }
  return q;
}

/** The CSV download of the whole list: the API's CSV of the same query (so the same columns and more). */
function csvButton(f: Filters, list: ListView, status: HTMLElement, page: ListPage): HTMLElement {
  return downloadButton(
    `/search-terms?${listQuery(f, list)}&format=csv`,
    f.instance,
    () => csvFileName(f, list, page.defaultInstance(), (ms) => isoDayIn(ms, f.tz)),
    status,
    page.signedOut,
  );
}

/** The sort select, "Unhandled only" (zero-result terms) and the CSV download; the searches without clicks: the CSV. */
function listControls(f: Filters, list: ListView, status: HTMLElement, page: ListPage): HTMLElement {
  const { navigate } = page;
  if (list === 'noclicks') {
    return el('div', { class: 'controls' }, csvButton(f, list, status, page));
  }
  const sort = el(
    'select',
    { id: 'sort' },
    el('option', { value: 'count', selected: f.sort === 'count' }, 'Most searched'),
    el('option', { value: 'rising', selected: f.sort === 'rising' }, 'Rising: growth vs previous period'),
  );
  sort.addEventListener('change', () => navigate({ ...f, sort: sort.value === 'rising' ? 'rising' : 'count', page: 0 }));
  const controls = el('div', { class: 'controls' }, el('label', { for: 'sort' }, 'Sort by'), sort);
  if (list === 'zero') {
    const unhandled = el('input', { id: 'unhandled', type: 'checkbox', checked: f.unhandled });
    unhandled.addEventListener('change', () => navigate({ ...f, unhandled: unhandled.checked, page: 0 }));
    controls.append(el('span', { class: 'check' }, unhandled, el('label', { for: 'unhandled' }, 'Unhandled only')));
  }
  controls.append(csvButton(f, list, status, page));
  return controls;
}

const TITLES: Record<ListView, string> = { terms: 'Top terms', zero: 'Zero-result terms', noclicks: 'Searches without clicks' };

/** A page of the top terms, of the zero-result terms or of the searches without clicks, with its controls. */
export async function termsView(f: Filters, list: ListView, page: ListPage): Promise<HTMLElement> {
  const title = TITLES[list];
  const start = f.page * PAGE_SIZE;
  const { body, total = 0 } = await getJson<Term[]>(
    `/search-terms?${listQuery(f, list)}&_start=${start}&_end=${start + PAGE_SIZE}`,
    f.instance,
  );
  if (start > 0 && start >= total) {
    // A page past the end (an old link): the last page instead.
    page.navigate({ ...f, page: Math.max(0, Math.ceil(total / PAGE_SIZE) - 1) }, true);
    return el('p', {}, 'Loading…');
  }
  const status = el('div');
  return el(
    'section',
    { 'aria-labelledby': 'list-title' },
    el('h2', { id: 'list-title' }, title),
    listControls(f, list, status, page),
    status,
    el('p', { class: 'hint' }, list === 'noclicks' ? NO_CLICKS_NOTE : COUNTS_NOTE),
    list === 'zero' ? el('p', { class: 'hint' }, WITH_FILTERS_NOTE) : null,
    list === 'noclicks'
      ? noClicksTable(f, title, body, page.navigate)
      : termsTable(
          f,
          title,
          body,
          // After a term was handled, the page reads the list again: the row shows its handler.
          {
            zero: list === 'zero',
            compare: f.sort === 'rising',
            engagement: list === 'terms',
            withFilters: list === 'zero',
            handled: () => page.navigate(f, true),
          },
          page.navigate,
        ),
    pager(f, start, total, page.navigate),
  );
}
