import { annotated } from '../annotations';
import { getJson, may, type Language, type Notification, type Stats, type Term } from '../api';
import { bucketStates, timeChart } from '../chart';
import {
  el,
  formatChange,
  formatMoment,
  formatMoney,
  formatNullableRate,
  formatNumber,
  formatPointChange,
  formatRate,
  kpi,
  REVENUE_LABELS,
} from '../dom';
import { apiWindow, type Filters, type Navigate } from '../filters';
import { COUNTS_NOTE, termsTable } from './term-table';

/**
 * Searches, users (distinct user tokens, else sessions), zero-hit rate, distinct terms, click-through rate and
 * conversion rate (of the tracked searches: '–' without any), each with its change against the previous period
 * (unless none), then the conversions' value and the purchases' revenue.
 */
function kpis(totals: Stats['totals'], previous: Stats['previous']): HTMLElement {
  const rate = (label: string, key: 'click_through_rate' | 'conversion_rate') =>
    kpi(label, formatNullableRate(totals[key]), formatPointChange(totals[key], previous?.[key]));
  return el(
    'div',
    { class: 'kpis' },
    kpi('Searches (all)', formatNumber(totals.searches), formatChange(totals.searches, previous?.searches)),
    kpi('Users', formatNumber(totals.users), formatChange(totals.users, previous?.users)),
    kpi('Zero-hit rate', formatRate(totals.zero_hit_rate), formatPointChange(totals.zero_hit_rate, previous?.zero_hit_rate)),
    kpi('Distinct terms', formatNumber(totals.distinct_terms), formatChange(totals.distinct_terms, previous?.distinct_terms)),
    rate('Click-through rate', 'click_through_rate'),
    rate('Conversion rate', 'conversion_rate'),
    // Per currency: no change against the previous period (currencies do not add up).
    kpi(REVENUE_LABELS.revenue, formatMoney(totals.revenue), ''),
    kpi(REVENUE_LABELS.purchase_revenue, formatMoney(totals.purchase_revenue), ''),
  );
}

/** All searches, the zero-hit rate and the click-through rate (of the tracked searches) per bucket of the period. */
function statsChart(f: Filters, stats: Stats): HTMLElement {
  const starts = stats.series.map((b) => Date.parse(b.start));
  const states = bucketStates(starts, stats.interval, f.tz, { from: Date.parse(stats.from), to: Date.parse(stats.to) }, Date.now());
  const chart = timeChart(
    `All searches, zero-hit rate and click-through rate per ${stats.interval}`,
    stats.series.map((b) => b.start),
    [
      { label: 'Searches (all)', values: stats.series.map((b) => b.searches), format: formatNumber, color: '#1f5fa8' },
      {
        label: 'Zero-hit rate',
        values: stats.series.map((b) => (b.searches === 0 ? null : b.zero_hit_rate)),
        format: formatRate,
        color: '#c0392b',
        right: true,
      },
      {
        label: 'Click-through rate',
        values: stats.series.map((b) => b.click_through_rate ?? null),
        format: formatRate,
        color: '#1e8449',
        right: true,
        missing: '–',
      },
    ],
    { tz: f.tz, interval: stats.interval, states },
  );
  return annotated(f, chart);
}

/** The first 10 top terms and zero-result terms, side by side. */
async function firstTerms(f: Filters, window: URLSearchParams, navigate: Navigate): Promise<HTMLElement[]> {
  const [top, zero] = await Promise.all([
    getJson<Term[]>(`/search-terms?${window}&_end=10`, f.instance),
    getJson<Term[]>(`/search-terms?${window}&hits=false&_end=10`, f.instance),
  ]);
  return [
    el(
      'div',
      { class: 'side-by-side' },
      termsTable(f, 'Top terms', top.body, { zero: false, compare: false }, navigate),
      termsTable(f, 'Zero-result terms', zero.body, { zero: true, compare: false }, navigate),
    ),
    el('p', { class: 'hint' }, COUNTS_NOTE),
  ];
}

/** The alerts shown: the newest. */
const ALERTS_SHOWN = 5;

/**
 * The newest alerts (docs/alerts.md), whatever the period: raised while nobody looked, so they come first. Shown to a
 * credential that may read notifications.
 */
async function recentAlerts(f: Filters): Promise<HTMLElement | null> {
  if (!may('notifications:read')) {
    return null;
  }
  const { body: alerts } = await getJson<Notification[]>(`/notifications?type=alert&_end=${ALERTS_SHOWN}`, f.instance);
  const list =
    alerts.length === 0
      ? el('p', { class: 'empty' }, 'No alerts.')
      : el(
          'ul',
          { class: 'alerts' },
          ...alerts.map((a) =>
            el('li', {}, el('time', { datetime: a.createdAt }, formatMoment(Date.parse(a.createdAt), f.tz)), ' ', a.message),
          ),
        );
  return el(
    'section',
    { class: 'recent-alerts', 'aria-labelledby': 'alerts-title' },
    el('h3', { id: 'alerts-title' }, 'Recent alerts'),
    list,
  );
}

/** The overview: the period's figures and chart, then the first terms of both lists; offers the period's languages. */
export async function overview(f: Filters, offerLanguages: (languages: Language[]) => void, navigate: Navigate): Promise<HTMLElement> {
  const window = apiWindow(f);
  const [{ body: stats, updatedAt }, alerts] = await Promise.all([
    getJson<Stats>(`/search-stats?${window}&compare=previous&engagement=true`, f.instance),
    recentAlerts(f),
  ]);
  offerLanguages(stats.languages);
  const section = el('section', { 'aria-labelledby': 'overview-title' }, el('h2', { id: 'overview-title' }, 'Overview'));
  if (alerts) {
    section.append(alerts);
  }
  if (stats.totals.searches === 0) {
    section.append(el('p', { class: 'empty' }, 'No searches in this period. Choose a longer period or another instance.'));
    return section;
  }
  // A period reaching past the current hour (a custom range ending in the future) has hours still to come: its totals
  // would be compared with a whole previous period and show a drop that is only time not yet passed.
  const unfinished = Date.parse(stats.to) > Date.now() + 3_600_000;
  const previous = unfinished ? undefined : stats.previous;
  if (updatedAt) {
    section.append(el('p', { class: 'updated' }, `Newest search counted: ${formatMoment(Date.parse(updatedAt), f.tz)}`));
  }
  section.append(
    kpis(stats.totals, previous),
    ...(unfinished
      ? [el('p', { class: 'partial-period' }, 'The period has not ended yet: its totals are not compared with the previous period.')]
      : []),
    statsChart(f, stats),
  );
  section.append(...(await firstTerms(f, window, navigate)));
  return section;
}
