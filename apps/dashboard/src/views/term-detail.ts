import { ApiError, getJson, type TermDetail } from '../api';
import { bucketStates, intervalOf, timeChart } from '../chart';
import { el, formatNumber, formatRate, kpi, scrollBox } from '../dom';
import { apiWindow, windowOf, type Filters } from '../filters';
import { handlerText } from './term-table';

/** The term's searches over time: all of them and those without results. */
function termChart(f: Filters, t: TermDetail): HTMLElement {
  const starts = t.series.map((b) => Date.parse(b.start));
  const interval = intervalOf(starts);
  const states = bucketStates(starts, interval, f.tz, windowOf(f, Date.now()), Date.now());
  return timeChart(
    'Searches of the term over time',
    t.series.map((b) => b.start),
    [
      { label: 'All searches', values: t.series.map((b) => b.count), format: formatNumber, color: '#1f5fa8' },
      { label: 'Without results', values: t.series.map((b) => b.zero_hit_count), format: formatNumber, color: '#c0392b' },
    ],
    { tz: f.tz, interval, states },
  );
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

/** A term's detail: all its searches, with and without results, its chart, its spellings and its handlers. */
export async function termView(f: Filters): Promise<HTMLElement> {
  let t: TermDetail;
  try {
    t = (await getJson<TermDetail>(`/search-terms/${encodeURIComponent(f.id)}?${apiWindow(f)}`, f.instance)).body;
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 404)) {
      throw err;
    }
    return el('p', { class: 'empty' }, 'This term was not searched in this period. Choose a longer period.');
  }
  const handlers = t.status.handled
    ? el('ul', {}, ...t.status.handlers.map((h) => el('li', {}, handlerText(h))))
    : el('p', {}, 'No entity handles this term.');
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
    el('h3', {}, 'Handled by'),
    handlers,
  );
}
