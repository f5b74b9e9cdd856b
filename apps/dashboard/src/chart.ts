import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { el } from './dom';

export interface ChartSeries {
  label: string;
  /** null: no value (a gap in the line), e.g. the zero-hit rate of a bucket without searches. */
  values: Array<number | null>;
  /** Formats a value for the legend and the data table. */
  format: (v: number) => string;
  color: string;
  /** Drawn against the right-hand axis (a rate). */
  right?: boolean;
}

/**
 * A line chart over time (uPlot, canvas): hovering shows the bucket's values in the legend. The same numbers are
 * in a data table below it for keyboards and screen readers.
 */
export function timeChart(title: string, starts: string[], series: ChartSeries[], tz: string): HTMLElement {
  const box = el('figure', { class: 'chart' });
  const caption = el('figcaption', {}, title);
  const plot = el('div', { role: 'img', 'aria-label': `${title}: chart; the values are in the table below` });
  box.append(caption, plot);
  const xs = starts.map((s) => Date.parse(s) / 1000);
  const options: uPlot.Options = {
    width: 600,
    height: 240,
    // Times in the chosen zone, not the browser's.
    tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), tz),
    scales: { x: { time: true }, rate: { range: [0, 1] } },
    axes: [
      {},
      {
        label: series
          .filter((s) => !s.right)
          .map((s) => s.label)
          .join(', '),
      },
      ...(series.some((s) => s.right)
        ? [
            {
              scale: 'rate',
              side: 1,
              grid: { show: false },
              values: (_u: uPlot, ticks: number[]) => ticks.map((t) => `${Math.round(t * 100)} %`),
            },
          ]
        : []),
    ],
    series: [
      { label: 'Start' },
      ...series.map((s) => ({
        label: s.label,
        stroke: s.color,
        width: 2,
        scale: s.right ? 'rate' : 'y',
        value: (_u: uPlot, v: number | null) => (v === null ? '–' : s.format(v)),
      })),
    ],
  };
  const chart = new uPlot(options, [xs, ...series.map((s) => s.values)], plot);
  const fit = () => chart.setSize({ width: Math.max(280, plot.clientWidth || box.clientWidth || 600), height: 240 });
  new ResizeObserver(fit).observe(box);
  const table = el('table', { class: 'chart-data' });
  table.append(
    el('caption', {}, `${title}: data`),
    el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'Start'), ...series.map((s) => el('th', { scope: 'col' }, s.label)))),
    el(
      'tbody',
      {},
      ...starts.map((start, i) =>
        el('tr', {}, el('td', {}, start), ...series.map((s) => el('td', {}, s.values[i] === null ? 'no searches' : s.format(s.values[i])))),
      ),
    ),
  );
  const details = el('details', {}, el('summary', {}, 'Chart data as a table'), table);
  box.append(details);
  return box;
}
