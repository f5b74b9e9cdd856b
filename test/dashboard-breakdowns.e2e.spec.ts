/// <reference lib="dom" />
// page.$eval and friends run their callbacks in the page: DOM types for those callbacks.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { Browser, CDPSession, Page } from 'puppeteer-core';
import { describeBrowser, launchBrowser, watchErrors } from './support/browser';
import { BASIC, basicHeader, http, startApp, type TestApp } from './support/test-app';

/**
 * The dashboard's Breakdowns view (docs/dashboard.md) in a headless Chromium: searches sent with filters, countries,
 * tags and user tokens over POST /events, every row and figure of the view checked by value, the drill-down from a
 * filter attribute to its values and back, the CSV, the users on the overview and the zero-result terms' "With
 * filters" column.
 */
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const TZ = 'Europe/Berlin';
const WINDOW = `since=7d&tz=${encodeURIComponent(TZ)}`;

type Row = string[];

describeBrowser('the dashboard’s breakdowns in Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  /** The page's DevTools session that set its locale. */
  let session: CDPSession;

  beforeAll(async () => {
    t = await startApp();
    const now = Date.now();
    const search = (phrase: string, hits: number, extra: Record<string, unknown> = {}) => ({
      phrase,
      language: 'de',
      hits,
      ts: now - HOUR,
      ...extra,
    });
    const events = [
      // "iphone" found nothing twice, both times under the same two filters, and results once under one of them.
      search('iphone', 0, { filters: ['brand:Apple', 'price<=100'], country: 'de', tags: ['mobile'], userToken: 'u1' }),
      search('iphone', 0, { filters: ['brand:Apple', 'price<=100'], country: 'de', tags: ['mobile'], userToken: 'u2' }),
      search('iphone', 5, { filters: ['brand:Apple'], country: 'fr', userToken: 'u1' }),
      search('hat', 3, { filters: ['brand:Acme', 'color:red'], country: 'de', tags: ['desktop'], userToken: 'u3' }),
      // "hat" found nothing once without any filter; "sock" found nothing under a filter, from no country.
      search('hat', 0, { country: 'at', userToken: 'u3' }),
      search('sock', 0, { filters: ['color:blue'], tags: ['mobile'], userToken: 'u4' }),
      // The previous period: one search by one user.
      search('hat', 2, { ts: now - 8 * DAY, userToken: 'u1' }),
    ];
    const sent = await http<{ accepted: number }>(`${t.url}/events`, {
      method: 'POST',
      headers: { ...basicHeader(), 'content-type': 'application/json' },
      body: JSON.stringify({ events }),
    });
    expect([sent.status, sent.body.accepted]).toEqual([202, events.length]);
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  beforeEach(async () => {
    page = await browser.newPage();
    session = await page.createCDPSession();
    await session.send('Emulation.setLocaleOverride', { locale: 'en-US' });
    await page.emulateTimezone(TZ);
    await page.setViewport({ width: 1280, height: 800 });
    errors = watchErrors(page);
    await page.goto(`${t.url}/dashboard`, { waitUntil: 'networkidle0' });
    await page.type('#login', BASIC.login);
    await page.type('#password', BASIC.password);
    await page.click('form button[type=submit]');
    await page.waitForSelector('.kpis');
  });
  afterEach(async () => {
    expect(errors).toEqual([]);
    await page.close();
  });

  const texts = (selector: string) => page.$$eval(selector, (nodes) => nodes.map((n) => (n.textContent ?? '').trim()));
  const rows = (): Promise<Row[]> =>
    page.$$eval('main table tbody tr', (trs) => trs.map((tr) => Array.from(tr.children).map((td) => (td.textContent ?? '').trim())));

  /** Waits until the breakdown table's caption reads `caption` (the page drawn for the new filters). */
  async function table(caption: string): Promise<Row[]> {
    await page.waitForFunction((c) => document.querySelector('main table caption')?.textContent === c, {}, caption);
    return rows();
  }

  async function openBreakdowns(): Promise<void> {
    await page.click('nav a::-p-text(Breakdowns)');
    await page.waitForSelector('#breakdown-title');
  }

  it('lists the filter attributes with their searches, zero-result rate and users, and least used first on request', async () => {
    await openBreakdowns();
    expect(new URL(page.url()).searchParams.get('view')).toBe('breakdown');
    expect(await texts('nav a[aria-current=page]')).toEqual(['Breakdowns']);
    expect(await page.$eval('#by', (s) => (s as HTMLSelectElement).value)).toBe('filter_attribute');
    expect(await texts('#by option')).toEqual(['Filter attributes', 'Filter sets of zero-result searches', 'Countries', 'Tags']);
    expect(await table('Filter attributes')).toEqual([
      ['brand', '4', '50.0%', '3'],
      ['color', '2', '50.0%', '2'],
      ['price', '2', '100.0%', '2'],
    ]);
    expect(await texts('main table thead th')).toEqual(['Filter attribute', 'Searches', 'Zero-result rate', 'Users']);
    expect(await texts('main table thead th[aria-sort=descending]')).toEqual(['Searches']);
    expect(await texts('.pager .range')).toEqual(['1–3 of 3']);
    await page.click('#least-used');
    await page.waitForFunction(() => new URL(location.href).searchParams.get('order') === 'asc');
    expect(await table('Filter attributes, least used first')).toEqual([
      ['color', '2', '50.0%', '2'],
      ['price', '2', '100.0%', '2'],
      ['brand', '4', '50.0%', '3'],
    ]);
    expect(await texts('main table thead th[aria-sort=ascending]')).toEqual(['Searches']);
    expect(await page.$eval('#least-used', (c) => (c as HTMLInputElement).checked)).toBe(true);
  });

  it("shows the filters used with a term's searches on its detail", async () => {
    const [iphone] = (
      await http<Array<{ id: string; search_phrase: string }>>(`${t.url}/search-terms?${WINDOW}&hits=all`, { headers: basicHeader() })
    ).body.filter((x) => x.search_phrase === 'iphone');
    await page.goto(`${t.url}/dashboard?view=term&id=${iphone.id}&${WINDOW}`, { waitUntil: 'networkidle0' });
    await page.waitForSelector('table.term-filters');
    expect(
      await page.$$eval('table.term-filters tbody tr', (trs) => trs.map((tr) => Array.from(tr.children).map((td) => td.textContent ?? ''))),
    ).toEqual([
      ['brand:Apple', '3', '2'],
      ['price<=100', '2', '2'],
    ]);
  });

  it("opens an attribute's values from its row, and goes back to all attributes", async () => {
    await openBreakdowns();
    await table('Filter attributes');
    await page.click('main table a::-p-text(brand)');
    await page.waitForFunction(() => new URL(location.href).searchParams.get('attribute') === 'brand');
    expect(await table('Values of the filter attribute “brand”')).toEqual([
      ['brand:Apple', '3', '66.7%', '2'],
      ['brand:Acme', '1', '0.0%', '1'],
    ]);
    expect(await texts('main table thead th')).toEqual(['Filter', 'Searches', 'Zero-result rate', 'Users']);
    // The link back, and the browser's back button, return to the attributes.
    await page.click('#back');
    await page.waitForFunction(() => !new URL(location.href).searchParams.has('attribute'));
    expect((await table('Filter attributes')).map((r) => r[0])).toEqual(['brand', 'color', 'price']);
    await page.goBack();
    expect((await table('Values of the filter attribute “brand”')).map((r) => r[0])).toEqual(['brand:Apple', 'brand:Acme']);
    await page.goBack();
    expect((await table('Filter attributes')).map((r) => r[0])).toEqual(['brand', 'color', 'price']);
  });

  it('breaks the searches down by the filter sets of zero-result searches, by country and by tag', async () => {
    await openBreakdowns();
    await table('Filter attributes');
    await page.select('#by', 'filter_set');
    expect(await table('Filter sets of zero-result searches')).toEqual([
      ['brand:Apple, price<=100', '2', '100.0%', '2'],
      ['color:blue', '1', '100.0%', '1'],
    ]);
    expect(new URL(page.url()).searchParams.get('by')).toBe('filter_set');
    await page.select('#by', 'country');
    expect(await table('Countries')).toEqual([
      ['Germany (DE)', '3', '66.7%', '3'],
      ['Austria (AT)', '1', '100.0%', '1'],
      ['France (FR)', '1', '0.0%', '1'],
    ]);
    await page.select('#by', 'tag');
    expect(await table('Tags')).toEqual([
      ['mobile', '3', '100.0%', '3'],
      ['desktop', '1', '0.0%', '1'],
    ]);
    expect(await texts('main table thead th')).toEqual(['Tag', 'Searches', 'Zero-result rate', 'Users']);
    // The same figures as the API's for the same query.
    const api = await http<Array<{ tag: string; searches: number; zero_hit_rate: number; users: number }>>(
      `${t.url}/search-breakdown?${WINDOW}&by=tag`,
      { headers: basicHeader() },
    );
    expect(api.body.map((e) => [e.tag, e.searches, e.zero_hit_rate, e.users])).toEqual([
      ['mobile', 3, 1, 3],
      ['desktop', 1, 0, 1],
    ]);
  });

  it("downloads the view's CSV: the API's CSV of the same query, named after the table and the period", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'dashboard-csv-'));
    try {
      const downloaded = await downloadInto(page, dir);
      await page.goto(`${t.url}/dashboard?view=breakdown&period=7d&tz=${TZ}&by=country&order=asc`, { waitUntil: 'networkidle0' });
      expect((await table('Countries, least used first')).map((r) => r[0])).toEqual(['Austria (AT)', 'France (FR)', 'Germany (DE)']);
      await page.click('.controls button::-p-text(Download CSV)');
      const name = await downloaded();
      const since = Math.floor((Date.now() - 7 * DAY) / HOUR) * HOUR;
      const isoDay = (ms: number) => new Intl.DateTimeFormat('en-CA', { timeZone: TZ }).format(ms);
      expect(name).toBe(`countries_${isoDay(since)}_${isoDay(Date.now())}_least-used.csv`);
      expect(readdirSync(dir)).toEqual([name]);
      const answer = await http<string>(`${t.url}/search-breakdown?${WINDOW}&by=country&order=asc&format=csv`, {
        headers: basicHeader(),
      });
      const csv = readFileSync(path.join(dir, name), 'utf8');
      expect(csv).toBe(answer.body);
      expect(csv.split('\r\n').slice(0, 2)).toEqual(['country,searches,zero_hit_searches,zero_hit_rate,users', 'AT,1,1,1,1']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('shows the users on the overview, with their change against the previous period', async () => {
    const cards = await page.$$eval('.kpi', (ks) => ks.map((k) => Array.from(k.children).map((c) => (c.textContent ?? '').trim())));
    expect(cards.slice(0, 2)).toEqual([
      ['Searches (all)', '6', '+500.0% vs previous period'],
      ['Users', '4', '+300.0% vs previous period'],
    ]);
  });

  it('shows on the zero-result terms how many of their searches had a filter', async () => {
    await page.click('nav a::-p-text(Zero-result terms)');
    await page.waitForSelector('#unhandled');
    expect(await texts('main table thead th')).toEqual([
      'Term',
      'Searches without results',
      'With filters',
      'Found nothing',
      'Handled by',
      'Action',
    ]);
    // "iphone" and "sock" found nothing only under filters (a filter problem), "hat" also without (a missing product).
    expect(await rows()).toEqual([
      ['iphone', '2', '2', 'Only under filters', 'unhandled', 'Handle'],
      ['hat', '1', '0', 'Also without filters', 'unhandled', 'Handle'],
      ['sock', '1', '1', 'Only under filters', 'unhandled', 'Handle'],
    ]);
    expect((await texts('main .hint')).some((hint) => hint.startsWith('"Only under filters": every search of the term'))).toBe(true);
  });

  it('works by keyboard: the dimension select, an attribute link and the way back', async () => {
    await openBreakdowns();
    await table('Filter attributes');
    await page.focus('#by');
    await page.keyboard.press('ArrowDown');
    expect(await table('Filter sets of zero-result searches')).toHaveLength(2);
    await page.keyboard.press('ArrowUp');
    await table('Filter attributes');
    // Tab from the select reaches the table's first attribute link, whose Enter opens its values.
    const focusedText = () => page.evaluate(() => document.activeElement?.textContent ?? '');
    for (let i = 0; i < 20 && (await focusedText()) !== 'brand'; i++) {
      await page.keyboard.press('Tab');
    }
    expect(await focusedText()).toBe('brand');
    await page.keyboard.press('Enter');
    expect(await table('Values of the filter attribute “brand”')).toHaveLength(2);
    await page.focus('#back');
    await page.keyboard.press('Enter');
    expect((await table('Filter attributes')).map((r) => r[0])).toEqual(['brand', 'color', 'price']);
  });

  it("writes the breakdown's numbers as the browser's locale does (de-DE)", async () => {
    // The locale of beforeEach's session (en-US) replaced.
    await session.send('Emulation.setLocaleOverride', { locale: 'de-DE' });
    await page.goto(`${t.url}/dashboard?view=breakdown&period=7d&tz=${TZ}&by=filter_attribute&attribute=brand`, {
      waitUntil: 'networkidle0',
    });
    // A decimal comma, and a no-break space before the percent sign.
    expect(await table('Values of the filter attribute “brand”')).toEqual([
      ['brand:Apple', '3', '66,7\u00a0%', '2'],
      ['brand:Acme', '1', '0,0\u00a0%', '1'],
    ]);
  });

  it('says so when the period has no rows, and fits a phone with every control labelled', async () => {
    const daysAgo = (n: number) => new Date(Date.now() - n * DAY).toISOString().slice(0, 10);
    await page.goto(`${t.url}/dashboard?view=breakdown&period=custom&from=${daysAgo(60)}&to=${daysAgo(50)}&tz=${TZ}&by=tag`, {
      waitUntil: 'networkidle0',
    });
    await page.waitForSelector('main .empty');
    expect(await texts('main .empty')).toEqual(['Tags: none in this period.']);
    expect(await texts('.pager .range')).toEqual(['No rows']);
    await page.setViewport({ width: 390, height: 844 });
    await page.goto(`${t.url}/dashboard?view=breakdown&period=7d&tz=${TZ}&by=filter_set`, { waitUntil: 'networkidle0' });
    await table('Filter sets of zero-result searches');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(390);
    expect(await page.$eval('main table', (table) => getComputedStyle(table.parentElement!).overflowX)).toBe('auto');
    const unlabelled = await page.$$eval('input, select, textarea', (controls) =>
      controls.filter((c) => !c.id || !document.querySelector(`label[for="${c.id}"]`)).map((c) => c.outerHTML),
    );
    expect(unlabelled).toEqual([]);
  });
});

/**
 * Saves the page's downloads in `dir`; the function it gives waits for the next one: its file name once Chromium
 * reports it complete (the DevTools protocol's download events), an error when it is cancelled.
 */
async function downloadInto(page: Page, dir: string): Promise<() => Promise<string>> {
  const session = await page.createCDPSession();
  const names = new Map<string, string>();
  const done = new Promise<string>((resolve, reject) => {
    session.on('Browser.downloadWillBegin', (e) => names.set(e.guid, e.suggestedFilename));
    session.on('Browser.downloadProgress', (e) => {
      if (e.state === 'completed') {
        resolve(names.get(e.guid) ?? '');
      } else if (e.state === 'canceled') {
        reject(new Error(`download ${names.get(e.guid) ?? e.guid} cancelled`));
      }
    });
  });
  await session.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: dir, eventsEnabled: true });
  return () => done;
}
