/** A small element builder: attributes, then children (strings become text, never HTML). */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | boolean | undefined> = {},
  ...children: Array<Node | string | null | undefined>
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) {
      continue;
    }
    node.setAttribute(name, value === true ? '' : value);
  }
  for (const child of children) {
    if (child !== null && child !== undefined) {
      node.append(child);
    }
  }
  return node;
}

/** A link to `href` that calls `go` instead of loading the page when clicked (a new tab still opens `href`). */
export function appLink(href: string, label: string, go: () => void, attributes: Record<string, string | undefined> = {}): HTMLElement {
  const a = el('a', { href, ...attributes }, label);
  a.addEventListener('click', (e) => {
    e.preventDefault();
    go();
  });
  return a;
}

/** An error or warning, read out by screen readers when it appears. */
export function alertBox(message: string): HTMLElement {
  return el('p', { role: 'alert', class: 'alert' }, message);
}

/** A key figure: its label, its value and its change (or a note). */
export function kpi(label: string, value: string, change: string): HTMLElement {
  return el('div', { class: 'kpi' }, el('h3', {}, label), el('p', { class: 'value' }, value), el('p', { class: 'change' }, change));
}

/** A table in its own sideways-scrolling box, reachable by keyboard and named for screen readers. */
export function scrollBox(table: HTMLTableElement, label: string): HTMLElement {
  return el('div', { class: 'table-scroll', role: 'region', 'aria-label': label, tabindex: '0' }, table);
}

/*
 * Numbers and dates as the browser's locale writes them (Intl with the default locale: `undefined`), dates in the
 * chosen time zone. The formats are made once.
 */
const numbers = new Intl.NumberFormat(undefined);
const signed = new Intl.NumberFormat(undefined, { signDisplay: 'exceptZero' });
const percent = new Intl.NumberFormat(undefined, { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 });
const signedPercent = new Intl.NumberFormat(undefined, {
  style: 'percent',
  minimumFractionDigits: 1,
  maximumFractionDigits: 1,
  signDisplay: 'exceptZero',
});
const points = new Intl.NumberFormat(undefined, { minimumFractionDigits: 1, maximumFractionDigits: 1, signDisplay: 'exceptZero' });

export function formatNumber(n: number): string {
  return numbers.format(n);
}

/** A difference with its sign: "+12", "0", "-200". */
export function formatGrowth(n: number): string {
  return signed.format(n);
}

export function formatRate(r: number): string {
  return percent.format(r);
}

/** What a figure without a value shows: a rate or mean whose denominator is 0 (the API's null). */
export const NO_VALUE = '–';

/** A rate that may be null (no tracked searches): formatted as the other rates, or '–'. */
export function formatNullableRate(r: number | null | undefined): string {
  return r === null || r === undefined ? NO_VALUE : percent.format(r);
}

/** The labels of the two money figures: `revenue` adds every conversion's value, `purchase_revenue` the purchases'. */
export const REVENUE_LABELS = { revenue: 'Conversion value', purchase_revenue: 'Revenue (purchases)' } as const;

const currencies = new Map<string, Intl.NumberFormat>();

/**
 * Money per currency, as the API gives it (`{ "EUR": 1234.5 }`): each amount as the locale writes its currency
 * ("€1,234.50"), in the order of the codes, joined by ", "; '–' without any. A code the browser does not know as a
 * currency is written before the number ("XYZ 12.5").
 */
export function formatMoney(amounts: Record<string, number> | undefined): string {
  const codes = Object.keys(amounts ?? {}).sort();
  if (codes.length === 0) {
    return NO_VALUE;
  }
  return codes
    .map((code) => {
      const amount = (amounts as Record<string, number>)[code];
      try {
        const format = currencies.get(code) ?? new Intl.NumberFormat(undefined, { style: 'currency', currency: code });
        currencies.set(code, format);
        return format.format(amount);
      } catch {
        return `${code} ${numbers.format(amount)}`;
      }
    })
    .join(', ');
}

const position = new Intl.NumberFormat(undefined, { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** An average click position with one decimal ("2.7"), or '–' without clicks. */
export function formatPosition(p: number | null | undefined): string {
  return p === null || p === undefined ? NO_VALUE : position.format(p);
}

const wholePercent = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 0 });

/** A rate axis's tick: 20%. */
export function formatRateTick(r: number): string {
  return wholePercent.format(r);
}

/** A change against the previous period, e.g. "+12.5% vs previous period", or "new" when there was nothing before. */
export function formatChange(current: number, previous: number | undefined): string {
  if (previous === undefined) {
    return '';
  }
  if (previous === 0) {
    return current === 0 ? 'no change' : 'new (nothing before)';
  }
  return `${signedPercent.format(current / previous - 1)} vs previous period`;
}

/**
 * A rate's change against the previous period in percentage points, e.g. "-4.3 points vs previous period"; nothing
 * without a previous period or when either rate is null.
 */
export function formatPointChange(current: number | null | undefined, previous: number | null | undefined): string {
  if (current === null || current === undefined || previous === null || previous === undefined) {
    return '';
  }
  return `${points.format((current - previous) * 100)} points vs previous period`;
}

/** A term's change (count / previous_count - 1) with its sign; "new" when there was nothing before. */
export function formatTermChange(change: number | null | undefined): string {
  if (change === null || change === undefined) {
    return 'new';
  }
  return signedPercent.format(change);
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** A format of the browser's locale in a zone, made once per zone and options. */
function dateFormat(tz: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${tz} ${JSON.stringify(options)}`;
  let format = dateFormats.get(key);
  if (!format) {
    dateFormats.set(key, (format = new Intl.DateTimeFormat(undefined, { ...options, timeZone: tz })));
  }
  return format;
}

const DAY: Intl.DateTimeFormatOptions = { day: '2-digit', month: '2-digit', year: 'numeric' };
const TIME: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit' };

/** The start of a bucket: its day, or its day and hour (e.g. 23.11.2026 or 23.11.2026, 14:00 in de-DE). */
export function formatStart(ms: number, interval: 'hour' | 'day', tz: string): string {
  return dateFormat(tz, interval === 'day' ? DAY : { ...DAY, ...TIME }).format(ms);
}

/** A chart's tick: the day without the year (23.11.), or the hour (14:00), with the day on a new line where it begins. */
export function formatTick(ms: number, interval: 'hour' | 'day', tz: string, withDay: boolean): string {
  const day = dateFormat(tz, { day: '2-digit', month: '2-digit' }).format(ms);
  if (interval === 'day') {
    return day;
  }
  const time = dateFormat(tz, TIME).format(ms);
  return withDay ? `${time}\n${day}` : time;
}

/** A moment with date and time, e.g. "23.11.2026, 14:05". */
export function formatMoment(ms: number, tz: string): string {
  return dateFormat(tz, { dateStyle: 'medium', timeStyle: 'short' }).format(ms);
}

/** The hour of the day (0-23) of a moment in a zone (in Latin digits, whatever the locale). */
export function hourIn(ms: number, tz: string): number {
  return Number(new Intl.DateTimeFormat('en-GB', { timeZone: tz, hour: '2-digit', hourCycle: 'h23' }).format(ms)) % 24;
}

/** YYYY-MM-DD of a moment in a zone (for file names, whatever the locale). */
export function isoDayIn(ms: number, tz: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(ms);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}
