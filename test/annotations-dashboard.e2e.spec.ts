/// <reference lib="dom" />
// page.$eval and friends run their callbacks in the page: DOM types for those callbacks.
import type { Browser, Page } from 'puppeteer-core';
import { describeBrowser, launchBrowser, watchErrors } from './support/browser';
import { basicHeader, http, jwtHeader, startApp, type TestApp } from './support/test-app';

/** Annotations on the dashboard's charts (docs/api/annotations.md), in a real headless Chromium. */
const HOUR = 3_600_000;
const TZ = 'Europe/Berlin';
/** Text, never HTML: the tags must show as written. */
const FROM_API = 'Price change <b>not bold</b>';

interface Annotation {
  id: string;
  ts: string;
  text: string;
}

/** The wall time of a moment in a zone as a date-time input writes it: 2026-11-20T09:05 (Swedish dates are ISO-like). */
const wallTime = (ms: number, tz: string) => new Date(ms).toLocaleString('sv-SE', { timeZone: tz }).replace(' ', 'T').slice(0, 16);

describeBrowser('annotations on the dashboard in Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let fromApi: Annotation;

  const post = <T>(path: string, body: unknown) =>
    http<T>(`${t.url}${path}`, {
      method: 'POST',
      headers: { ...basicHeader(), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const api = <T>(path: string) => http<T>(`${t.url}${path}`, { headers: basicHeader() });
  const texts = (selector: string) => page.$$eval(selector, (nodes) => nodes.map((n) => (n.textContent ?? '').trim()));

  beforeAll(async () => {
    t = await startApp();
    const now = Date.now();
    const events = Array.from({ length: 30 }, (_, i) => ({
      phrase: i % 3 === 0 ? 'winter coat' : 'red shoes',
      language: 'de',
      hits: i % 3 === 0 ? 0 : 5,
      ts: now - (i % 3) * 24 * HOUR - HOUR,
    }));
    expect((await post<{ accepted: number }>('/events', { events })).body.accepted).toBe(30);
    const made = await post<Annotation>('/annotations', { ts: new Date(now - 26 * HOUR).toISOString(), text: FROM_API });
    expect(made.status).toBe(201);
    fromApi = made.body;
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t.close();
  });

  /** A new tab (its own sessionStorage) in Berlin time at 1280x800, its browser set to en-US. */
  async function newPage(): Promise<void> {
    page = await browser.newPage();
    // The browser's locale, as a user's browser set to it (dates in the table are written in it).
    await (await page.createCDPSession()).send('Emulation.setLocaleOverride', { locale: 'en-US' });
    await page.emulateTimezone(TZ);
    await page.setViewport({ width: 1280, height: 800 });
    errors = watchErrors(page);
  }
  beforeEach(() => newPage());
  afterEach(() => page.close());

  /** Signs in with `authorization` (kept in sessionStorage as the sign-in form keeps it) and opens a view. */
  async function open(authorization: string, view = 'overview'): Promise<void> {
    await page.goto(`${t.url}/dashboard`, { waitUntil: 'networkidle0' });
    await page.evaluate((value) => sessionStorage.setItem('search-analytics.credential', value), authorization);
    await page.goto(`${t.url}/dashboard?view=${view}&period=7d&tz=${TZ}`, { waitUntil: 'networkidle0' });
    await page.waitForSelector('.chart .u-over');
  }
  const basic = () => basicHeader().authorization;

  it("draws an annotation of the API as a marker on the overview chart, with its text on hover and in the chart's table", async () => {
    await open(basic());
    await page.waitForSelector('.chart .annotation-marker');
    // The text on hover: the marker's SVG <title>, its moment first.
    const titles = await texts('.chart .annotation-marker title');
    expect(titles).toHaveLength(1);
    expect(titles[0]).toMatch(/: Price change <b>not bold<\/b>$/);
    expect(await page.$('.chart b')).toBeNull();
    // On the time axis, inside the plot: between its first and last bucket, at its share of the time.
    const { x, width } = await page.$eval('.chart .annotation-marker', (g) => {
      const over = g.closest('.u-over')!;
      return { x: Number(/translate\(([\d.]+)/.exec(g.getAttribute('transform') ?? '')?.[1]), width: over.clientWidth };
    });
    const stats = (await api<{ series: Array<{ start: string }> }>(`/search-stats?since=7d&tz=${TZ}`)).body;
    const [first, last] = [Date.parse(stats.series[0].start), Date.parse(stats.series[stats.series.length - 1].start)];
    expect(x / width).toBeCloseTo((Date.parse(fromApi.ts) - first) / (last - first), 1);
    // In the data table: a row after the bucket (day) it lies in.
    const rows = await page.$$eval('.chart-data tbody tr', (trs) => trs.map((tr) => [tr.className, tr.children[0].textContent ?? '']));
    const index = rows.findIndex(([kind]) => kind === 'annotation');
    expect(rows.filter(([kind]) => kind === 'annotation')).toHaveLength(1);
    expect(rows).toHaveLength(stats.series.length + 1);
    const day = new Intl.DateTimeFormat('en-US', { timeZone: TZ, day: '2-digit', month: '2-digit', year: 'numeric' });
    expect(rows[index - 1][1]).toContain(day.format(Date.parse(fromApi.ts)));
    expect(await texts('.chart-data tr.annotation td:last-child')).toEqual([`Annotation: ${FROM_API}`]);
    expect(errors).toEqual([]);
  });

  it("draws it on the term detail's chart too", async () => {
    const id = (await api<Array<{ id: string }>>(`/search-terms?since=7d&tz=${TZ}&_end=1`)).body[0].id;
    await open(basic(), `term&id=${id}`);
    await page.waitForSelector('.chart .annotation-marker');
    expect(await texts('.chart .annotation-marker title')).toEqual([expect.stringContaining(FROM_API)]);
    expect(await texts('.chart-data tr.annotation td:last-child')).toEqual([`Annotation: ${FROM_API}`]);
    expect(errors).toEqual([]);
  });

  it("adds one through the form (its time in the chosen zone), and shows the API's 400 on bad input", async () => {
    await open(basic());
    await page.waitForSelector('.chart .annotation-marker');
    // Every control of the form has its label.
    expect(await page.$eval('#annotation-text', (input) => (input as HTMLInputElement).labels?.[0]?.textContent)).toBe('Annotation');
    expect(await page.$eval('#annotation-ts', (input) => (input as HTMLInputElement).labels?.[0]?.textContent)).toBe('Time (optional)');
    const addButton = async () => {
      const buttons = await page.$$('.annotation-form button');
      const names = await Promise.all(buttons.map((b) => b.evaluate((node) => node.textContent)));
      expect(names).toEqual(['Add annotation']);
      return buttons[0];
    };

    // Bad input: the API's message, naming the field.
    await (await addButton()).click();
    await page.waitForSelector('.annotation-status [role=alert]');
    expect(await texts('.annotation-status [role=alert]')).toEqual([expect.stringContaining('text must be 1-200 characters')]);
    // The one console line allowed: the browser's own report of the deliberate 400.
    expect(errors.every((e) => /status of 400/.test(e))).toBe(true);
    errors.length = 0;

    const moment = Math.floor((Date.now() - 5 * HOUR) / 60_000) * 60_000;
    await page.type('#annotation-text', 'Launch of the new search');
    await page.$eval('#annotation-ts', (input, value) => ((input as HTMLInputElement).value = value), wallTime(moment, TZ));
    await (await addButton()).click();
    await page.waitForFunction(() => document.querySelectorAll('.chart .annotation-marker').length === 2);
    expect(await texts('.annotation-status')).toEqual(['Annotation added.']);
    expect(await page.$eval('#annotation-text', (input) => (input as HTMLInputElement).value)).toBe('');
    const listed = (await api<Annotation[]>(`/annotations?since=7d&_end=100`)).body;
    const added = listed.find((a) => a.text === 'Launch of the new search');
    expect(added?.ts).toBe(new Date(moment).toISOString());
    // Oldest first, in the table too.
    expect(await texts('.chart-data tr.annotation td:last-child')).toEqual([
      `Annotation: ${FROM_API}`,
      'Annotation: Launch of the new search',
    ]);
    expect(errors).toEqual([]);
    const removed = await http(`${t.url}/annotations/${added!.id}`, { method: 'DELETE', headers: basicHeader() });
    expect(removed.status).toBe(200);
  });

  it('hides the form from a JWT without annotations.write; without annotations.read it draws none and asks for none', async () => {
    await open(jwtHeader({ permissions: ['search.read', 'annotations.read'] }).authorization);
    await page.waitForSelector('.chart .annotation-marker');
    expect(await page.$('.annotation-form')).toBeNull();
    expect(await page.$('#annotation-text')).toBeNull();
    expect(await texts('button')).not.toContain('Add annotation');
    expect(errors).toEqual([]);

    // A new tab, so that no request goes out with the token before.
    await page.close();
    await newPage();
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    await open(jwtHeader({ permissions: ['search.read'] }).authorization);
    await page.waitForSelector('.kpis');
    expect(await page.$('.chart .annotation-marker')).toBeNull();
    expect(await page.$('.annotation-form')).toBeNull();
    expect(requests.filter((url) => url.includes('/annotations'))).toEqual([]);
    expect(errors).toEqual([]);
  });
});
