import { getJson, type BreakdownEntry } from '../api';
import { csvButton } from '../csv';
import { appLink, el, formatNumber, formatRate, isoDayIn, scrollBox } from '../dom';
import { PAGE_SIZE, apiWindow, csvFileName, writeFilters, type Dimension, type Filters } from '../filters';
import { pager, type ListPage } from './term-table';

/**
 * The Breakdowns view (GET /search-breakdown): the period's searches by filter attribute (an attribute opens its
 * values), by the filter set of the searches that found nothing, by country or by analytics tag, each row with its
 * searches, zero-result rate and users; most searched first or least used first, paged, with the CSV of the same query.
 */

const DIMENSION_LABELS: Record<Dimension, string> = {
  filter_attribute: 'Filter attributes',
  filter_set: 'Filter sets of zero-result searches',
  country: 'Countries',
  tag: 'Tags',
};

const KEY_HEADS: Record<Dimension, string> = {
  filter_attribute: 'Filter attribute',
  filter_set: 'Filter set',
  country: 'Country',
  tag: 'Tag',
};

export const BREAKDOWN_NOTE =
  'A search with several filters counts once for each of its attributes and values, and once for its whole set; ' +
  'searches sent without filters, country or tags are in no row. Users are distinct user tokens, else sessions.';

/** An attribute's values are listed (by=filter_value) rather than the attributes. */
const valuesOf = (f: Filters) => (f.by === 'filter_attribute' && f.attribute ? f.attribute : '');

/** The API query of the view: the dimension, the filter sets of zero-result searches only, the order. */
function breakdownQuery(f: Filters): URLSearchParams {
  const q = apiWindow(f);
  const attribute = valuesOf(f);
  if (attribute) {
    q.set('by', 'filter_value');
    q.set('attribute', attribute);
  } else {
    q.set('by', f.by);
  }
  if (f.by === 'filter_set') {
    q.set('hits', 'false');
  }
  if (f.order === 'asc') {
    q.set('order', 'asc');
  }
  return q;
}

/** A filter as the shop sends it: brand:Apple, price<=100. */
function filterText(x: { attribute?: string; operator?: string; value?: string }): HTMLElement {
  return el('code', {}, `${x.attribute ?? ''}${x.operator ?? ''}${x.value ?? ''}`);
}

/** Country names in the browser's language, where it knows them. */
let regions: Intl.DisplayNames | null | undefined;

/** A country: its name and code (Germany (DE)), or the code alone when the browser has no name for it. */
function countryText(code: string): string {
  if (regions === undefined) {
    regions = typeof Intl.DisplayNames === 'function' ? new Intl.DisplayNames(undefined, { type: 'region' }) : null;
  }
  try {
    const name = regions?.of(code);
    return name && name !== code ? `${name} (${code})` : code;
  } catch {
    return code;
  }
}

/** The key cell of an entry: an attribute opens its values; a filter set is its filters, each as the shop sends it. */
function keyCell(f: Filters, e: BreakdownEntry, page: ListPage): Node | string {
  if (valuesOf(f)) {
    return filterText(e);
  }
  switch (f.by) {
    case 'filter_attribute': {
      const target = { ...f, attribute: e.attribute ?? '', page: 0 };
      return appLink(writeFilters(target), e.attribute ?? '', () => page.navigate(target));
    }
    case 'filter_set':
      return el('span', {}, ...(e.filters ?? []).flatMap((x, i) => (i > 0 ? [', ', filterText(x)] : [filterText(x)])));
    case 'country':
      return countryText(e.country ?? '');
    case 'tag':
      return e.tag ?? '';
  }
}

/** The table's caption: the dimension (or the attribute's values), and the order when it is least used first. */
function captionOf(f: Filters): string {
  const attribute = valuesOf(f);
  const title = attribute ? `Values of the filter attribute “${attribute}”` : DIMENSION_LABELS[f.by];
  return f.order === 'asc' ? `${title}, least used first` : title;
}

/** The entries: the key, searches (the order), zero-result rate and users. */
function breakdownTable(f: Filters, entries: BreakdownEntry[], page: ListPage): HTMLElement {
  const caption = captionOf(f);
  if (entries.length === 0) {
    return el('p', { class: 'empty' }, `${caption}: none in this period.`);
  }
  const num = (text: string) => el('td', { class: 'num' }, text);
  const head = el(
    'tr',
    {},
    el('th', { scope: 'col' }, valuesOf(f) ? 'Filter' : KEY_HEADS[f.by]),
    el('th', { scope: 'col', class: 'num', 'aria-sort': f.order === 'asc' ? 'ascending' : 'descending' }, 'Searches'),
    el('th', { scope: 'col', class: 'num' }, 'Zero-result rate'),
    el('th', { scope: 'col', class: 'num' }, 'Users'),
  );
  const rows = entries.map((e) =>
    el(
      'tr',
      {},
      el('td', {}, keyCell(f, e, page)),
      num(formatNumber(e.searches)),
      num(formatRate(e.zero_hit_rate)),
      num(formatNumber(e.users)),
    ),
  );
  return scrollBox(
    el('table', { class: 'breakdown' }, el('caption', {}, caption), el('thead', {}, head), el('tbody', {}, ...rows)),
    caption,
  );
}

/** The dimension select, "Least used first" and the CSV download; an attribute's values also the way back. */
function controls(f: Filters, status: HTMLElement, page: ListPage): HTMLElement {
  const { navigate } = page;
  const by = el('select', { id: 'by' });
  for (const [value, label] of Object.entries(DIMENSION_LABELS)) {
    by.append(el('option', { value, selected: value === f.by }, label));
  }
  by.addEventListener('change', () => navigate({ ...f, by: by.value as Dimension, attribute: '', page: 0 }));
  const leastUsed = el('input', { id: 'least-used', type: 'checkbox', checked: f.order === 'asc' });
  leastUsed.addEventListener('change', () => navigate({ ...f, order: leastUsed.checked ? 'asc' : 'desc', page: 0 }));
  const csv = csvButton(
    `/search-breakdown?${breakdownQuery(f)}&format=csv`,
    f.instance,
    () => csvFileName(f, 'breakdown', page.defaultInstance(), (ms) => isoDayIn(ms, f.tz)),
    status,
    page.signedOut,
  );
  return el(
    'div',
    { class: 'controls' },
    el('label', { for: 'by' }, 'Break down by'),
    by,
    el('span', { class: 'check' }, leastUsed, el('label', { for: 'least-used' }, 'Least used first')),
    csv,
  );
}

/** The link back from an attribute's values to all filter attributes. */
function backLink(f: Filters, page: ListPage): HTMLElement {
  const target = { ...f, attribute: '', page: 0 };
  return el(
    'p',
    { class: 'back' },
    appLink(writeFilters(target), '← All filter attributes', () => page.navigate(target), { id: 'back' }),
  );
}

/** A page of the Breakdowns view with its controls. */
export async function breakdownView(f: Filters, page: ListPage): Promise<HTMLElement> {
  const start = f.page * PAGE_SIZE;
  const { body, total = 0 } = await getJson<BreakdownEntry[]>(
    `/search-breakdown?${breakdownQuery(f)}&_start=${start}&_end=${start + PAGE_SIZE}`,
    f.instance,
  );
  if (start > 0 && start >= total) {
    // A page past the end (an old link): the last page instead.
    page.navigate({ ...f, page: Math.max(0, Math.ceil(total / PAGE_SIZE) - 1) }, true);
    return el('p', {}, 'Loading…');
  }
  const status = el('div');
  const attribute = valuesOf(f);
  return el(
    'section',
    { 'aria-labelledby': 'breakdown-title' },
    el('h2', { id: 'breakdown-title' }, 'Breakdowns'),
    controls(f, status, page),
    status,
    ...(attribute ? [backLink(f, page)] : []),
    el(
      'p',
      { class: 'hint' },
      f.by === 'filter_attribute' && !attribute ? `${BREAKDOWN_NOTE} Choose an attribute to see its values.` : BREAKDOWN_NOTE,
    ),
    breakdownTable(f, body, page),
    pager(f, start, total, page.navigate, 'No rows'),
  );
}
