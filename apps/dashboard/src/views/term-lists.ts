import { ApiError, getJson, request, type Term } from '../api';
import { alertBox, el, formatNumber, isoDayIn } from '../dom';
import { PAGE_SIZE, apiWindow, csvFileName, type Filters, type Navigate } from '../filters';
import { COUNTS_NOTE, termsTable } from './term-table';

/** What the term lists need of the page: going to other filters, the default instance (CSV names), signing out. */
export interface ListPage {
  navigate: Navigate;
  defaultInstance: () => string;
  signedOut: (err: ApiError) => void;
}

function listQuery(f: Filters, zero: boolean): URLSearchParams {
  const q = apiWindow(f);
  if (zero) {
    q.set('hits', 'false');
  }
  if (zero && f.unhandled) {
    q.set('handled', 'false');
  }
  if (f.sort === 'rising') {
    q.set('sort', 'rising');
  }
  return q;
}

async function download(f: Filters, zero: boolean, button: HTMLButtonElement, status: HTMLElement, page: ListPage): Promise<void> {
  button.disabled = true;
  try {
    const res = await request(`/search-terms?${listQuery(f, zero)}&format=csv`, f.instance, 'text/csv');
    const url = URL.createObjectURL(await res.blob());
    const name = csvFileName(f, zero, page.defaultInstance(), (ms) => isoDayIn(ms, f.tz));
    const a = el('a', { href: url, download: name, hidden: true });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) {
      return page.signedOut(err);
    }
    status.replaceChildren(alertBox(`The download failed: ${(err as Error).message}`));
  } finally {
    button.disabled = false;
  }
}

/** The sort select, "Unhandled only" (zero-result terms) and the CSV download of the whole list. */
function listControls(f: Filters, zero: boolean, status: HTMLElement, page: ListPage): HTMLElement {
  const { navigate } = page;
  const sort = el(
    'select',
    { id: 'sort' },
    el('option', { value: 'count', selected: f.sort === 'count' }, 'Most searched'),
    el('option', { value: 'rising', selected: f.sort === 'rising' }, 'Rising: growth vs previous period'),
  );
  sort.addEventListener('change', () => navigate({ ...f, sort: sort.value === 'rising' ? 'rising' : 'count', page: 0 }));
  const controls = el('div', { class: 'controls' }, el('label', { for: 'sort' }, 'Sort by'), sort);
  if (zero) {
    const unhandled = el('input', { id: 'unhandled', type: 'checkbox', checked: f.unhandled });
    unhandled.addEventListener('change', () => navigate({ ...f, unhandled: unhandled.checked, page: 0 }));
    controls.append(el('span', { class: 'check' }, unhandled, el('label', { for: 'unhandled' }, 'Unhandled only')));
  }
  const csv = el('button', { type: 'button', class: 'secondary' }, 'Download CSV');
  csv.addEventListener('click', () => void download(f, zero, csv, status, page));
  controls.append(csv);
  return controls;
}

/** Previous and next page, and which terms of how many are shown. */
function pager(f: Filters, start: number, total: number, navigate: Navigate): HTMLElement {
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
      total === 0 ? 'No terms' : `${formatNumber(start + 1)}–${formatNumber(Math.min(start + PAGE_SIZE, total))} of ${formatNumber(total)}`,
    ),
    next,
  );
}

/** A page of the top terms, or of the zero-result terms (`zero`), with its controls. */
export async function termsView(f: Filters, zero: boolean, page: ListPage): Promise<HTMLElement> {
  const title = zero ? 'Zero-result terms' : 'Top terms';
  const start = f.page * PAGE_SIZE;
  const { body, total = 0 } = await getJson<Term[]>(
    `/search-terms?${listQuery(f, zero)}&_start=${start}&_end=${start + PAGE_SIZE}`,
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
    listControls(f, zero, status, page),
    status,
    el('p', { class: 'hint' }, COUNTS_NOTE),
    termsTable(f, title, body, { zero, compare: f.sort === 'rising' }, page.navigate),
    pager(f, start, total, page.navigate),
  );
}
