import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { takeAnnotations } from './chart-annotations';
import { el, formatRateTick, formatStart, formatTick, hourIn, scrollBox } from './dom';

const HOUR = 3_600_000;

export type Interval = 'hour' | 'day';

/**
 * A bucket of a series: `full`; `partial` when part of it is outside the window or still to come (the running hour or
 * day, the first day of a window that begins within it), so its numbers are lower than a whole bucket's; `future`
 * when it begins after now (nothing can be counted yet).
 */
export type BucketState = 'full' | 'partial' | 'future';

/** Where the day that begins at `start` (midnight in tz) ends: 24 hours later, or 23 or 25 where the clocks change. */
function nextMidnight(start: number, tz: string): number {
  const t = start + 24 * HOUR;
  const hour = hourIn(t, tz);
  return hour === 23 ? t + HOUR : hour === 1 ? t - HOUR : t;
}

/** The state of each bucket of a series over the window [from, to) at `now` (ms). */
export function bucketStates(
  starts: number[],
  interval: Interval,
  tz: string,
  window: { from: number; to: number },
  now: number,
): BucketState[] {
  return starts.map((start, i) => {
    const end = i + 1 < starts.length ? starts[i + 1] : interval === 'hour' ? start + HOUR : nextMidnight(start, tz);
    if (start >= now) {
      return 'future';
    }
    return start < window.from || end > Math.min(window.to, now) ? 'partial' : 'full';
  });
}

/** The interval of a series from its starts (the term detail does not name it): hours are 1 hour apart. */
export function intervalOf(starts: number[]): Interval {
  return starts.length > 1 && starts[1] - starts[0] <= HOUR ? 'hour' : 'day';
}

/** The sentence that explains the dashed buckets, or undefined when every bucket is whole. */
export function partialNote(states: BucketState[], interval: Interval): string | undefined {
  let last = states.length - 1;
  while (last >= 0 && states[last] === 'future') {
    last--;
  }
  const parts: string[] = [];
  if (last >= 0 && states[last] === 'partial') {
    parts.push(`The last ${interval} is still running`);
  }
  if (last > 0 && states[0] === 'partial') {
    parts.push(parts.length ? 'the first is only partly in the period' : `The first ${interval} is only partly in the period`);
  }
  const future = states.includes('future') ? ` The ${interval}s still to come are not drawn.` : '';
  if (parts.length === 0) {
    return future.trim() || undefined;
  }
  return `${parts.join(' and ')}: ${parts.length > 1 ? 'their numbers are' : 'its numbers are'} partial (drawn dashed).${future}`;
}

export interface ChartSeries {
  label: string;
  /** null: no value (a gap in the line), e.g. the zero-hit rate of a bucket without searches. */
  values: Array<number | null>;
  /** Formats a value for the legend and the data table. */
  format: (v: number) => string;
  color: string;
  /** Drawn against the right-hand axis (a rate). */
  right?: boolean;
  /** The data table's text for a null value: 'no searches' unless given. */
  missing?: string;
}

export interface ChartTime {
  tz: string;
  interval: Interval;
  states: BucketState[];
}

const STATE_NOTE: Record<BucketState, string> = { full: '', partial: ' (partial)', future: ' (still to come)' };

/**
 * A line chart over time (uPlot, canvas): hovering shows the bucket's values in the legend. Whole buckets are joined
 * by a solid line, partial ones by a dashed one (with a note below the chart); buckets still to come are not drawn.
 * Counts are drawn from 0 (a count axis fitted to the data would make small changes look large). The same numbers are
 * in a data table below it for keyboards and screen readers. Annotations (chart-annotations.ts, setAnnotations) are
 * drawn on it as markers and listed in the table among the buckets.
 */
export function timeChart(title: string, starts: string[], series: ChartSeries[], time: ChartTime): HTMLElement {
  const { tz, interval, states } = time;
  const { box, plot } = figure(title);
  const xs = starts.map((s) => Date.parse(s) / 1000);
  const data = series.map((s) => s.values.map((v, i) => (states[i] === 'future' ? null : v)));
  // The whole buckets are one run (partial ones are at the edges): the solid line joins them.
  const firstFull = states.indexOf('full');
  const lastFull = states.lastIndexOf('full');
  const linear = uPlot.paths.linear!();
  const solid: uPlot.Series.PathBuilder = (u, si, i0, i1) =>
    firstFull < 0 ? null : linear(u, si, Math.max(i0, firstFull), Math.min(i1, lastFull));
  const dashed = (u: uPlot, si: number) => {
    const ys = u.data[si];
    const s = u.series[si];
    const { ctx } = u;
    ctx.save();
    ctx.beginPath();
    ctx.rect(u.bbox.left, u.bbox.top, u.bbox.width, u.bbox.height);
    ctx.clip();
    ctx.strokeStyle = series[si - 1].color;
    ctx.lineWidth = 2 * uPlot.pxRatio;
    ctx.setLineDash([6 * uPlot.pxRatio, 4 * uPlot.pxRatio]);
    ctx.beginPath();
    for (let i = 0; i + 1 < xs.length; i++) {
      const [a, b] = [ys[i], ys[i + 1]];
      if ((states[i] === 'full' && states[i + 1] === 'full') || a === null || a === undefined || b === null || b === undefined) {
        continue;
      }
      ctx.moveTo(u.valToPos(xs[i], 'x', true), u.valToPos(a, s.scale!, true));
      ctx.lineTo(u.valToPos(xs[i + 1], 'x', true), u.valToPos(b, s.scale!, true));
    }
    ctx.stroke();
    ctx.restore();
  };
  const startText = (i: number) => `${formatStart(Date.parse(starts[i]), interval, tz)}${STATE_NOTE[states[i]]}`;
  const options: uPlot.Options = {
    width: 600,
    height: 240,
    // Times in the chosen zone, not the browser's.
    tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), tz),
    scales: {
      x: { time: true },
      y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] },
      rate: { range: [0, 1] },
    },
    axes: [
      {
        // Days: ticks on whole days only (the labels carry no time).
        ...(interval === 'day' ? { incrs: [1, 2, 7, 14, 28].map((n) => n * 86_400) } : {}),
        values: (_u: uPlot, ticks: number[]) =>
          ticks.map((t, i) => formatTick(t * 1000, interval, tz, i === 0 || hourIn(t * 1000, tz) === 0)),
      },
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
              values: (_u: uPlot, ticks: number[]) => ticks.map(formatRateTick),
            },
          ]
        : []),
    ],
    hooks: {
      drawSeries: [dashed],
      // The count axis's range as drawn, on the plot element (data-y-min, data-y-max): what the browser tests check.
      setScale: [
        (u: uPlot, key: string) => {
          if (key !== 'y') {
            return;
          }
          plot.dataset.yMin = String(u.scales.y.min);
          plot.dataset.yMax = String(u.scales.y.max);
        },
      ],
    },
    series: [
      { label: 'Start', value: (_u: uPlot, _v: number, _si: number, i: number | null) => (i === null ? '--' : startText(i)) },
      ...series.map((s) => ({
        label: s.label,
        stroke: s.color,
        width: 2,
        scale: s.right ? 'rate' : 'y',
        paths: solid,
        value: (_u: uPlot, v: number | null) => (v === null ? '–' : s.format(v)),
      })),
    ],
  };
  const chart = new uPlot(options, [xs, ...data], plot);
  fitted(chart, plot, box, 240);
  const note = partialNote(states, interval);
  if (note) {
    box.append(el('p', { class: 'partial-note' }, note));
  }
  box.append(
    dataTable(
      title,
      ['Start', ...series.map((s) => s.label)],
      starts.map((_start, i) => [
        startText(i),
        ...series.map((s) => {
          const v = s.values[i];
          return v === null ? (s.missing ?? 'no searches') : s.format(v);
        }),
      ]),
    ),
  );
  takeAnnotations(box, chart, xs, tz, series.length);
  return box;
}

/** A chart's numbers in a table, under a disclosure below the chart: for keyboards and screen readers. */
function dataTable(title: string, columns: string[], rows: string[][]): HTMLElement {
  const table = el('table', { class: 'chart-data' });
  table.append(
    el('caption', {}, `${title}: data`),
    el('thead', {}, el('tr', {}, ...columns.map((c) => el('th', { scope: 'col' }, c)))),
    el('tbody', {}, ...rows.map((row) => el('tr', {}, ...row.map((cell) => el('td', {}, cell))))),
  );
  return el('details', {}, el('summary', {}, 'Chart data as a table'), scrollBox(table, title));
}

/** The chart's figure: its caption and the plot's element, an image named for screen readers. */
function figure(title: string): { box: HTMLElement; plot: HTMLElement } {
  const box = el('figure', { class: 'chart' });
  const plot = el('div', { role: 'img', 'aria-label': `${title}: chart; the values are in the table below` });
  box.append(el('figcaption', {}, title), plot);
  return { box, plot };
}

/** Keeps a chart as wide as its box. */
function fitted(chart: uPlot, plot: HTMLElement, box: HTMLElement, height: number): void {
  const fit = () => chart.setSize({ width: Math.max(280, plot.clientWidth || box.clientWidth || 600), height });
  new ResizeObserver(fit).observe(box);
}

/** A series of a bar chart: a count per category. */
export interface BarSeries {
  label: string;
  values: number[];
  format: (v: number) => string;
  color: string;
}

/**
 * A bar chart over categories (uPlot, canvas), e.g. clicks per position: hovering shows a bar's value in the legend,
 * counts are drawn from 0, and the same numbers are in a data table below it for keyboards and screen readers.
 */
export function barChart(title: string, category: string, categories: string[], series: BarSeries): HTMLElement {
  const { box, plot } = figure(title);
  const xs = categories.map((_c, i) => i + 1);
  const options: uPlot.Options = {
    width: 600,
    height: 200,
    scales: {
      x: { time: false, range: [0.5, categories.length + 0.5] },
      y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] },
    },
    axes: [
      { incrs: [1, 2, 5, 10], space: 24, values: (_u: uPlot, ticks: number[]) => ticks.map((t) => categories[t - 1] ?? '') },
      { label: series.label },
    ],
    series: [
      { label: category, value: (_u: uPlot, _v: number, _si: number, i: number | null) => (i === null ? '--' : categories[i]) },
      {
        label: series.label,
        stroke: series.color,
        fill: series.color,
        width: 0,
        paths: uPlot.paths.bars!({ size: [0.7, 40] }),
        points: { show: false },
        value: (_u: uPlot, v: number | null) => (v === null ? '–' : series.format(v)),
      },
    ],
  };
  fitted(new uPlot(options, [xs, series.values], plot), plot, box, 200);
  box.append(
    dataTable(
      title,
      [category, series.label],
      categories.map((c, i) => [c, series.format(series.values[i])]),
    ),
  );
  return box;
}
