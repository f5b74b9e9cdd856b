import { annotated } from '../annotations';
import { ApiError, getJson, type TermDetail } from '../api';
import { barChart, bucketStates, intervalOf, timeChart } from '../chart';
import { el, formatMoney, formatNullableRate, formatNumber, formatPosition, formatRate, kpi, REVENUE_LABELS, scrollBox } from '../dom';
import { apiWindow, windowOf, type Filters, type Navigate } from '../filters';
import { handleButton, handlerLink } from '../handle';
import { unhandledLanguages, unhandledText } from './term-table';

/** The term's searches over time: all of them and those without results. */
function termChart(f: Filters, t: TermDetail): HTMLElement {
  const starts = t.series.map((b) => Date.parse(b.start));
  const interval = intervalOf(starts);
  const states = bucketStates(starts, interval, f.tz, windowOf(f, Date.now()), Date.now());
  const chart = timeChart(
    'Searches of the term over time',
    t.series.map((b) => b.start),
    [
      { label: 'All searches', values: t.series.map((b) => b.count), format: formatNumber, color: '#1f5fa8' },
      { label: 'Without results', values: t.series.map((b) => b.zero_hit_count), format: formatNumber, color: '#c0392b' },
    ],
    { tz: f.tz, interval, states },
  );
  return annotated(f, chart);
}

/** The phrases as shoppers typed them, with their searches. */
function spellings(t: TermDetail): HTMLElement {
  const table = el(
    'table',
    {},
    el('caption', {}, 'Original spellings'),
    el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'As typed'), el('th', { scope: 'col', class: 'num' }, 'Searches (all)'))),
    el(
      'tbody',
      {},
      ...t.variants.map((v) => el('tr', {}, el('td', {}, el('code', {}, v.phrase)), el('td', { class: 'num' }, formatNumber(v.count)))),
    ),
  );
  return scrollBox(table, 'Original spellings');
}

/** The filters most used with the term's searches, with how many of them found nothing (none: a line saying so). */
function filtersTable(t: TermDetail): HTMLElement {
  if (t.filters.length === 0) {
    return el('p', { class: 'filters-none' }, 'No filters were sent with these searches.');
  }
  const num = (n: number) => el('td', { class: 'num' }, formatNumber(n));
  const table = el(
    'table',
    { class: 'term-filters' },
    el('caption', {}, 'Filters used'),
    el(
      'thead',
      {},
      el(
        'tr',
        {},
        el('th', { scope: 'col' }, 'Filter'),
        el('th', { scope: 'col', class: 'num' }, 'Searches'),
        el('th', { scope: 'col', class: 'num' }, 'Without results'),
      ),
    ),
    el(
      'tbody',
      {},
      ...t.filters.map((x) =>
        el('tr', {}, el('td', {}, el('code', {}, `${x.attribute}${x.operator}${x.value}`)), num(x.searches), num(x.zero_hit_searches)),
      ),
    ),
  );
  return scrollBox(table, 'Filters used');
}

/** The term's tracked searches in figures: clicked and converted, with their rates, and the clicks' mean position. */
function engagementFigures(t: TermDetail): HTMLElement {
  const tracked = t.tracked_searches ?? 0;
  const figures: Array<[string, string]> = [
    ['Tracked searches', formatNumber(tracked)],
    ['Searches without clicks', formatNumber(tracked - (t.clicked_searches ?? 0))],
    ['Click-through rate', formatNullableRate(t.click_through_rate)],
    ['Conversion rate', formatNullableRate(t.conversion_rate)],
    ['Average click position', formatPosition(t.average_click_position)],
    [REVENUE_LABELS.revenue, formatMoney(t.revenue)],
    [REVENUE_LABELS.purchase_revenue, formatMoney(t.purchase_revenue)],
  ];
  return el('dl', { class: 'figures' }, ...figures.map(([name, value]) => el('div', {}, el('dt', {}, name), el('dd', {}, value))));
}

/** Clicks per position of the clicked result: 1 to 20, then 21 and beyond as one bar ("21+"). */
function positionChart(t: TermDetail): HTMLElement {
  const positions = t.positions ?? [];
  return barChart(
    'Clicks per position of the result',
    'Position',
    positions.map((p) => (p.position >= 21 ? '21+' : String(p.position))),
    { label: 'Clicks', values: positions.map((p) => p.clicks), format: formatNumber, color: '#1f5fa8' },
  );
}

/** The objects clicked most from the term's tracked searches, with their clicks and conversions. */
function objectsTable(t: TermDetail): HTMLElement {
  const objects = t.objects ?? [];
  if (objects.length === 0) {
    return el('p', { class: 'empty' }, 'No clicks on the tracked searches of this term in this period.');
  }
  const num = (n: number) => el('td', { class: 'num' }, formatNumber(n));
  const table = el(
    'table',
    { class: 'objects' },
    el('caption', {}, 'Most clicked objects'),
    el(
      'thead',
      {},
      el(
        'tr',
        {},
        el('th', { scope: 'col' }, 'Object id'),
        el('th', { scope: 'col', class: 'num', 'aria-sort': 'descending' }, 'Clicks'),
        el('th', { scope: 'col', class: 'num' }, 'Conversions'),
      ),
    ),
    el('tbody', {}, ...objects.map((o) => el('tr', {}, el('td', {}, el('code', {}, o.object_id)), num(o.clicks), num(o.conversions)))),
  );
  return scrollBox(table, 'Most clicked objects');
}

/** What shoppers did after searching the term: figures, clicks per position, the most clicked objects. */
function engagement(t: TermDetail): HTMLElement[] {
  return [el('h3', { id: 'engagement-title' }, 'Clicks and conversions'), engagementFigures(t), positionChart(t), objectsTable(t)];
}

/** Who handles the term (each handler opens its entity), in which languages not, and its Handle button. */
function handlers(f: Filters, t: TermDetail, navigate: Navigate): HTMLElement[] {
  const unhandled = unhandledText(t.status);
  const term = { id: t.id, search_phrase: t.search_phrase, languages: unhandledLanguages(f, t.status) };
  // Handled, the page reads the term again: it shows its handler.
  const handle = !t.status.handled && t.zero_hit_count > 0 ? handleButton(f, term, () => navigate(f, true)) : null;
  return [
    t.status.handlers.length > 0
      ? el('ul', {}, ...t.status.handlers.map((h) => el('li', {}, handlerLink(f, h))))
      : el('p', {}, 'No entity handles this term.'),
    ...(unhandled ? [el('p', { class: 'unhandled' }, `Searched without results and ${unhandled}.`)] : []),
    ...(handle ? [el('div', { class: 'controls' }, handle)] : []),
  ];
}

/**
 * A term's detail: all its searches, with and without results, its chart, its spellings, its clicks and conversions
 * and its handlers.
 */
export async function termView(f: Filters, navigate: Navigate): Promise<HTMLElement> {
  let t: TermDetail;
  try {
    t = (await getJson<TermDetail>(`/search-terms/${encodeURIComponent(f.id)}?${apiWindow(f)}&engagement=true`, f.instance)).body;
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 404)) {
      throw err;
    }
    return el('p', { class: 'empty' }, 'This term was not searched in this period. Choose a longer period.');
  }
  return el(
    'section',
    { 'aria-labelledby': 'term-title' },
    el('h2', { id: 'term-title' }, `“${t.search_phrase}”`),
    el(
      'div',
      { class: 'kpis' },
      kpi('All searches', formatNumber(t.count), 'with results or not'),
      kpi('With results', formatNumber(t.count - t.zero_hit_count), 'as counted in the top terms'),
      kpi('Without results', formatNumber(t.zero_hit_count), t.count ? `${formatRate(t.zero_hit_count / t.count)} of all` : ''),
    ),
    termChart(f, t),
    spellings(t),
    filtersTable(t),
    ...engagement(t),
    el('h3', {}, 'Handled by'),
    ...handlers(f, t, navigate),
  );
}
