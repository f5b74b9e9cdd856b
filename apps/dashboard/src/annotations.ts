import type { components } from '../../../docs/client/api';
import { ApiError, getJson, may, send } from './api';
import { setAnnotations, type ChartAnnotation } from './chart-annotations';
import { alertBox, el } from './dom';
import { apiWindow, type Filters } from './filters';

/**
 * Annotations on the charts over time (GET and POST /annotations): each chart of a view draws the annotations of the
 * view's window, and a credential that may write them gets a form to add one below the chart.
 */

type Annotation = components['schemas']['AnnotationView'];

/** The most annotations a chart draws (one page of GET /annotations). */
const MAX_ANNOTATIONS = 1000;

/** The annotations of the filters' window: the window alone (since, or from and to, and tz), not language or bots. */
async function annotationsOf(f: Filters): Promise<ChartAnnotation[]> {
  const window = apiWindow(f);
  const q = new URLSearchParams();
  for (const name of ['since', 'from', 'to', 'tz']) {
    const value = window.get(name);
    if (value !== null) {
      q.set(name, value);
    }
  }
  q.set('_end', String(MAX_ANNOTATIONS));
  const { body } = await getJson<Annotation[]>(`/annotations?${q}`, f.instance);
  return body.map((a) => ({ ts: Date.parse(a.ts), text: a.text }));
}

/** The offset of `tz` from UTC at `ms`, in ms (Berlin in winter: 3,600,000). */
function offsetOf(ms: number, tz: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: tz,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(ms);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const wall = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'));
  return wall - Math.floor(ms / 1000) * 1000;
}

/**
 * A date-time input's value (2026-11-20T09:00, a wall time in `tz`) as the moment it names, in UTC with Z; the value
 * as it is when it names none (the API then says what is wrong with it).
 */
export function zonedMoment(local: string, tz: string): string {
  const wall = Date.parse(`${local}Z`);
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(local) || Number.isNaN(wall)) {
    return local;
  }
  // The offset at the guess, then at the moment it gives (right also next to a change of the clocks).
  const guess = wall - offsetOf(wall, tz);
  return new Date(wall - offsetOf(guess, tz)).toISOString();
}

/** The form that adds an annotation (POST /annotations); `added` runs after each one the API took. */
function annotationForm(f: Filters, added: () => Promise<void>): HTMLElement {
  const text = el('input', { id: 'annotation-text', name: 'text', type: 'text', autocomplete: 'off' });
  const time = el('input', { id: 'annotation-ts', name: 'ts', type: 'datetime-local' });
  const button = el('button', { type: 'submit' }, 'Add annotation');
  const status = el('div', { class: 'annotation-status', 'aria-live': 'polite' });
  const form = el(
    'form',
    { class: 'annotation-form', 'aria-label': 'Add an annotation' },
    el('div', {}, el('label', { for: 'annotation-text' }, 'Annotation'), text),
    el('div', {}, el('label', { for: 'annotation-ts' }, 'Time (optional)'), time),
    button,
    el('p', { class: 'hint' }, `Time in ${f.tz}; now when empty.`),
    status,
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    button.disabled = true;
    const body = time.value ? { text: text.value, ts: zonedMoment(time.value, f.tz) } : { text: text.value };
    send('POST', '/annotations', f.instance, body)
      .then(async () => {
        text.value = '';
        time.value = '';
        status.replaceChildren(el('p', { class: 'hint' }, 'Annotation added.'));
        await added();
      })
      .catch((err: unknown) => {
        // The API's message names the field (text, ts) and what is wrong with it.
        status.replaceChildren(alertBox(err instanceof ApiError ? err.message : String(err)));
      })
      .finally(() => {
        button.disabled = false;
      });
  });
  return form;
}

/**
 * A chart of timeChart with the annotations of the filters' window drawn on it once they are read (when the credential
 * may read them), and the form to add one below it (when it may write them).
 */
export function annotated(f: Filters, chart: HTMLElement): HTMLElement {
  const refresh = async () => {
    if (!may('annotations:read')) {
      return;
    }
    try {
      setAnnotations(chart, await annotationsOf(f));
    } catch (err) {
      chart.querySelector('.annotation-error')?.remove();
      chart.append(el('p', { class: 'hint annotation-error' }, `Annotations could not be read: ${(err as Error).message}`));
    }
  };
  void refresh();
  return may('annotations:write') ? el('div', { class: 'annotated' }, chart, annotationForm(f, refresh)) : chart;
}
