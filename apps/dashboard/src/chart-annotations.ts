import type uPlot from 'uplot';
import { el, formatMoment } from './dom';

/**
 * Annotations on a chart over time (chart.ts, timeChart): a marker per annotation, a vertical line with a small flag
 * and its time and text in an SVG <title> (shown on hover), and a row per annotation in the chart's data table.
 */

/** A note at a moment (GET /annotations). */
export interface ChartAnnotation {
  /** ms since the epoch */
  ts: number;
  text: string;
}

/** What setAnnotations calls for each chart that takes annotations. */
const setters = new WeakMap<HTMLElement, (annotations: ChartAnnotation[]) => void>();

/** Draws these annotations on a chart of timeChart, in place of those it had. */
export function setAnnotations(chart: HTMLElement, annotations: ChartAnnotation[]): void {
  setters.get(chart)?.(annotations);
}

const SVG = 'http://www.w3.org/2000/svg';

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attributes: Record<string, string> = {}): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) {
    node.setAttribute(name, value);
  }
  return node;
}

function marker({ ts, text }: ChartAnnotation, tz: string): { marker: SVGGElement; lines: SVGLineElement[] } {
  // The drawn line, and a wider invisible one that is easier to hover.
  const lines = ['line', 'hit'].map((kind) => svg('line', { class: kind, x1: '0', x2: '0', y1: '0', y2: '0' }));
  const title = svg('title');
  title.textContent = `${formatMoment(ts, tz)}: ${text}`;
  const g = svg('g', { class: 'annotation-marker', 'data-ts': String(ts) });
  g.append(title, ...lines, svg('path', { d: 'M0 0h9l-3 4 3 4H0z' }));
  return { marker: g, lines };
}

/** An annotation's row in a chart's data table: its moment, then its text across the series' columns. */
function annotationRow({ ts, text }: ChartAnnotation, tz: string, columns: number): HTMLElement {
  return el(
    'tr',
    { class: 'annotation' },
    el('td', {}, formatMoment(ts, tz)),
    el('td', { colspan: String(columns) }, el('span', { class: 'annotation-label' }, 'Annotation: '), text),
  );
}

/**
 * Lets setAnnotations draw on a time chart: `box` holds the chart and its data table (one row per bucket), `u` is its
 * uPlot, `xs` the buckets' starts in seconds, `columns` the number of its series.
 */
export function takeAnnotations(box: HTMLElement, u: uPlot, xs: number[], tz: string, columns: number): void {
  const layer = svg('svg', { class: 'annotation-markers', 'aria-hidden': 'true' });
  u.over.append(layer);
  let shown: Array<{ at: number; marker: SVGGElement; lines: SVGLineElement[] }> = [];
  // After every redraw (a resize, a new scale): the markers follow the time axis.
  const place = () => {
    const height = String(u.over.clientHeight);
    for (const { at, marker, lines } of shown) {
      marker.setAttribute('transform', `translate(${u.valToPos(at / 1000, 'x').toFixed(1)} 0)`);
      lines.forEach((line) => line.setAttribute('y2', height));
    }
  };
  u.hooks.draw = [...(u.hooks.draw ?? []), place];
  const tbody = box.querySelector('.chart-data tbody')!;
  const bucketRows = [...tbody.children];
  setters.set(box, (annotations) => {
    const sorted = [...annotations].sort((a, b) => a.ts - b.ts);
    const times = sorted.map((a) => a.ts / 1000);
    // The time axis reaches every annotation (one in the last bucket lies after its start, the axis's end).
    const [min, max] = [Math.min(xs[0], ...times), Math.max(xs[xs.length - 1], ...times)];
    if (min < xs[0] || max > xs[xs.length - 1]) {
      u.setScale('x', { min, max });
    }
    shown = sorted.map((a) => ({ at: a.ts, ...marker(a, tz) }));
    layer.replaceChildren(...shown.map((m) => m.marker));
    place();
    // In the table, each annotation follows the row of the bucket it lies in.
    const rows: Element[] = [];
    let next = 0;
    const rowsUntil = (end: number) => {
      for (; next < sorted.length && times[next] < end; next++) {
        rows.push(annotationRow(sorted[next], tz, columns));
      }
    };
    bucketRows.forEach((row, i) => {
      rowsUntil(xs[i]);
      rows.push(row);
    });
    rowsUntil(Infinity);
    tbody.replaceChildren(...rows);
  });
}
