/// <reference lib="dom" />
// page.$eval and friends run their callbacks in the page: DOM types for those callbacks.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'puppeteer-core';
import { ClickHouseService } from '@app/clickhouse';
import { DataVersions } from '@app/intake';
import { describeBrowser, launchBrowser, watchErrors } from './support/browser';
import { CUSTOMER, INSTANCE, insertInteractions, insertSearches, type Interaction, type Search } from './support/engagement';
import { BASIC, basicHeader, http, jwtHeader, startApp, type TestApp } from './support/test-app';

/** The dashboard (docs/dashboard.md) in a real headless Chromium, against the service with seeded events. */
const HOUR = 3_600_000;
const TZ = 'Europe/Berlin';
const PHRASES = ['red shoes', 'blue hat', 'socks', 'winter coat', 'Red  Shoes'];

/** The browser's locale (Intl's default and navigator.language), as a user's browser set to it. */
async function emulateLocale(page: Page, locale: string): Promise<void> {
  const session = await page.createCDPSession();
  await session.send('Emulation.setLocaleOverride', { locale });
}

const percent = (locale: string, r: number) =>
  new Intl.NumberFormat(locale, { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(r);
/** A day in the zone, as the browser's locale writes it. */
const dayIn = (locale: string, ms: number, tz = TZ) =>
  new Intl.DateTimeFormat(locale, { timeZone: tz, day: '2-digit', month: '2-digit', year: 'numeric' }).format(ms);
/** YYYY-MM-DD of an instant in the zone. */
const isoDay = (ms: number, tz = TZ) => new Intl.DateTimeFormat('en-CA', { timeZone: tz }).format(ms);

function textsOf(page: Page, selector: string): Promise<string[]> {
  return page.$$eval(selector, (nodes) => nodes.map((n) => (n.textContent ?? '').trim()));
}

/** Downloads of a page go to a new folder; the function waits for one, removes it, and gives its name and text. */
async function downloadsOf(page: Page): Promise<() => Promise<{ name: string; text: string }>> {
  const dir = mkdtempSync(path.join(tmpdir(), 'dashboard-csv-'));
  const session = await page.createCDPSession();
  await session.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: dir });
  return async () => {
    for (let i = 0; i < 100 && !readdirSync(dir).some((f) => f.endsWith('.csv')); i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const [name, ...more] = readdirSync(dir);
    expect(more).toEqual([]);
    const text = readFileSync(path.join(dir, name), 'utf8');
    rmSync(path.join(dir, name));
    return { name, text };
  };
}

describeBrowser('the dashboard in Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    t = await startApp();
    const now = Date.now();
    const events = [
      ...Array.from({ length: 60 }, (_, i) => ({
        phrase: PHRASES[i % PHRASES.length],
        language: 'de',
        hits: i % 3 === 0 ? 0 : 4,
        ts: now - (i % 5) * 24 * HOUR - HOUR,
      })),
      // 1,234 searches in all, in three languages: en 1,000 (200 today, 400 yesterday, 400 four days ago), fr 174.
      ...Array.from({ length: 1000 }, (_, i) => ({
        phrase: 'boots',
        language: 'en',
        hits: 3,
        ts: now - ((i * i) % 5) * 24 * HOUR - 2 * HOUR,
      })),
      ...Array.from({ length: 174 }, (_, i) => ({ phrase: 'bottes', language: 'fr', hits: 1, ts: now - (i % 3) * 24 * HOUR - 2 * HOUR })),
    ];
    const body = JSON.stringify({ events });
    const sent = await http<{ accepted: number }>(`${t.url}/events`, {
      method: 'POST',
      headers: { ...basicHeader(), 'content-type': 'application/json' },
      body,
    });
    expect(sent.body.accepted).toBe(1234);
    const saved = await http(`${t.url}/entities/synonym/syn-socks`, {
      method: 'PUT',
      headers: { ...basicHeader(), 'content-type': 'application/json' },
      body: JSON.stringify({ searchPhrases: ['socks'] }),
    });
    expect(saved.status).toBe(201);
    // 'winter coat' found nothing in de; this entity handles it in en only.
    const english = await http(`${t.url}/entities/landingpage/lp-coats`, {
      method: 'PUT',
      headers: { ...basicHeader(), 'content-type': 'application/json' },
      body: JSON.stringify({ searchPhrases: ['winter coat'], language: 'en' }),
    });
    expect(english.status).toBe(201);
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t.close();
  });

  /** A new page in Berlin time at 1280x800, its browser set to `locale`. */
  async function openPage(locale: string): Promise<void> {
    page = await browser.newPage();
    await emulateLocale(page, locale);
    await page.emulateTimezone(TZ);
    await page.setViewport({ width: 1280, height: 800 });
    errors = watchErrors(page);
  }

  beforeEach(() => openPage('en-US'));
  afterEach(async () => {
    await page.close();
  });

  const api = <T>(p: string) => http<T>(`${t.url}${p}`, { headers: basicHeader() });
  const texts = (selector: string) => textsOf(page, selector);

  async function signIn(password = BASIC.password): Promise<void> {
    await page.goto(`${t.url}/dashboard`, { waitUntil: 'networkidle0' });
    await page.type('#login', BASIC.login);
    await page.type('#password', password);
    await page.click('form button[type=submit]');
  }

  async function signedIn(): Promise<void> {
    await signIn();
    await page.waitForSelector('.kpis');
  }

  it('says so in an alert when the password is wrong, then signs in', async () => {
    await signIn('wrong-password');
    await page.waitForSelector('[role=alert]');
    expect(await texts('[role=alert]')).toEqual(['Sign-in failed: Basic credentials wrong: the login or the password does not match.']);
    // The one console line allowed: the browser's own report of the deliberate 401.
    expect(errors.every((e) => /status of 401/.test(e))).toBe(true);
    errors.length = 0;
    await page.$eval('#password', (input) => ((input as HTMLInputElement).value = ''));
    await page.type('#password', BASIC.password);
    await page.click('form button[type=submit]');
    await page.waitForSelector('.kpis');
    expect(await page.evaluate(() => Object.keys(sessionStorage))).toEqual(['search-analytics.credential']);
    expect(await page.evaluate(() => Object.keys(localStorage))).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('shows on the overview the numbers of the API, and the first page of both term lists', async () => {
    await signedIn();
    const stats = (
      await api<{
        totals: { searches: number; users: number; zero_hit_rate: number; distinct_terms: number };
        series: Array<{ searches: number; zero_hit_rate: number }>;
      }>(`/search-stats?since=7d&tz=${TZ}&compare=previous`)
    ).body;
    expect(await texts('.kpi .value')).toEqual([
      stats.totals.searches.toLocaleString('en-US'),
      // Searches sent without a user token or session: no users.
      stats.totals.users.toLocaleString('en-US'),
      percent('en-US', stats.totals.zero_hit_rate),
      stats.totals.distinct_terms.toLocaleString('en-US'),
      // Searches sent without an id: no tracked searches, so no click-through or conversion rate, no conversion value.
      '–',
      '–',
      '–',
      '–',
    ]);
    expect([stats.totals.searches, stats.totals.users]).toEqual([1234, 0]);
    // Hovering over the chart shows the bucket's values in its legend.
    const plot = (await page.$('.chart .u-over'))!;
    const box = (await plot.boundingBox())!;
    await page.mouse.move(box.x + box.width - 2, box.y + box.height / 2);
    await page.waitForFunction(() => document.querySelectorAll('.chart .u-legend .u-value')[1]?.textContent !== '–');
    const legend = await texts('.chart .u-legend .u-series .u-value');
    const last = stats.series[stats.series.length - 1];
    // A bucket without searches has no rate: a gap in the line, '–' in the legend (in the first hour of a Berlin day
    // the seeded events, an hour old and older, are all in the day before).
    const rate = last.searches === 0 ? '–' : percent('en-US', last.zero_hit_rate);
    expect(legend.slice(1)).toEqual([last.searches.toLocaleString('en-US'), rate, '–']);
    const top = (await api<Array<{ search_phrase: string }>>(`/search-terms?since=7d&tz=${TZ}&_end=10`)).body;
    const zero = (await api<Array<{ search_phrase: string }>>(`/search-terms?since=7d&tz=${TZ}&hits=false&_end=10`)).body;
    const tables = await page.$$eval('.side-by-side table', (ts) =>
      ts.map((table) => Array.from(table.querySelectorAll('tbody tr td:first-child')).map((td) => td.textContent)),
    );
    expect(tables).toEqual([top.map((x) => x.search_phrase), zero.map((x) => x.search_phrase)]);
    expect(errors).toEqual([]);
  });

  it('lists zero-result terms as the API does, and only the unhandled ones with the switch', async () => {
    await signedIn();
    await page.click('nav a:nth-of-type(3)');
    await page.waitForSelector('#unhandled');
    const rows = () => page.$$eval('main table tbody tr', (trs) => trs.map((tr) => Array.from(tr.children).map((td) => td.textContent)));
    const all = (
      await api<Array<{ search_phrase: string; count: number; status: { handled: boolean } }>>(
        `/search-terms?since=7d&tz=${TZ}&hits=false&_end=25`,
      )
    ).body;
    expect((await rows()).map((r) => [r[0], Number(r[1])])).toEqual(all.map((x) => [x.search_phrase, x.count]));
    // Searches sent without filters: none of them had a filter, so none found nothing only under filters.
    expect((await rows()).map((r) => [r[2], r[3]])).toEqual(all.map(() => ['0', 'Also without filters']));
    expect((await rows()).find((r) => r[0] === 'socks')?.[4]).toBe('synonym: syn-socks');
    expect((await rows()).find((r) => r[0] === 'winter coat')?.[4]).toBe('landingpage: lp-coats; not handled in de');
    await page.click('#unhandled');
    await page.waitForFunction(() => location.search.includes('unhandled=true'));
    await page.waitForSelector('#unhandled:checked');
    const unhandled = (await api<Array<{ search_phrase: string }>>(`/search-terms?since=7d&tz=${TZ}&hits=false&handled=false&_end=25`))
      .body;
    expect((await rows()).map((r) => r[0])).toEqual(unhandled.map((x) => x.search_phrase));
    expect((await rows()).map((r) => r[0])).not.toContain('socks');
    expect((await rows()).map((r) => r[0])).toContain('winter coat');
    expect(errors).toEqual([]);
  });

  it("opens a term's detail with its chart and original spellings", async () => {
    await signedIn();
    await page.click('.side-by-side table a');
    await page.waitForSelector('#term-title');
    const id = new URL(page.url()).searchParams.get('id')!;
    const detail = (await api<{ variants: Array<{ phrase: string; count: number }> }>(`/search-terms/${id}?since=7d&tz=${TZ}`)).body;
    const spellings = await page.$$eval('main section > .table-scroll table tbody tr', (trs) =>
      trs.map((tr) => Array.from(tr.children).map((td) => td.textContent)),
    );
    expect(spellings).toEqual(detail.variants.map((v) => [v.phrase, v.count.toLocaleString('en-US')]));
    expect(await page.$('.chart canvas')).not.toBeNull();
    expect(errors).toEqual([]);
  });

  it('keeps the filters in the URL, and a reload restores them', async () => {
    await signedIn();
    await page.select('#period', '30d');
    await page.select('#language', 'de');
    await page.click('.filters button[type=submit]');
    await page.waitForFunction(() => location.search.includes('period=30d'));
    expect(new URL(page.url()).searchParams.get('language')).toBe('de');
    await page.reload({ waitUntil: 'networkidle0' });
    await page.waitForSelector('.kpis');
    expect(await page.$eval('#period', (s) => (s as HTMLSelectElement).value)).toBe('30d');
    expect(await page.$eval('#language', (s) => (s as HTMLSelectElement).value)).toBe('de');
    expect(await page.$eval('#tz', (s) => (s as HTMLInputElement).value)).toBe(TZ);
    expect(errors).toEqual([]);
  });

  const catchDownloads = () => downloadsOf(page);

  it('downloads the CSV of a table, equal to the API answer', async () => {
    const downloaded = await catchDownloads();
    await signedIn();
    await page.click('nav a:nth-of-type(3)');
    await page.waitForSelector('#unhandled');
    await page.click('.controls button');
    const csv = (await downloaded()).text;
    const res = await http<string>(`${t.url}/search-terms?since=7d&tz=${encodeURIComponent(TZ)}&hits=false&filters=true&format=csv`, {
      headers: basicHeader(),
    });
    expect(csv).toBe(res.body);
    expect(errors).toEqual([]);
  });

  it("shows the API's 400 for a bad filter, and an empty state for a period without searches", async () => {
    await signedIn();
    await page.goto(`${t.url}/dashboard?view=overview&period=7d&tz=Mars/Olympus`, { waitUntil: 'networkidle0' });
    await page.waitForSelector('[role=alert]');
    expect((await texts('[role=alert]'))[0]).toMatch(/^tz must be an IANA time zone/);
    const daysAgo = (n: number) => new Date(Date.now() - n * 24 * HOUR).toISOString().slice(0, 10);
    await page.goto(`${t.url}/dashboard?view=overview&period=custom&from=${daysAgo(60)}&to=${daysAgo(50)}&tz=UTC`, {
      waitUntil: 'networkidle0',
    });
    await page.waitForSelector('.empty');
    expect(await page.$('.chart')).toBeNull();
    expect(errors.every((e) => /status of 400/.test(e))).toBe(true);
  });

  it('returns to the sign-in with a message when the token has expired', async () => {
    const expired = jwtHeader({ permissions: ['search.read'] }, { expiresIn: -10 }).authorization;
    await page.goto(`${t.url}/dashboard`, { waitUntil: 'networkidle0' });
    await page.evaluate((value) => sessionStorage.setItem('search-analytics.credential', value), expired);
    await page.reload({ waitUntil: 'networkidle0' });
    await page.waitForSelector('[role=alert]');
    expect((await texts('[role=alert]'))[0]).toMatch(/^Signed out: .*Sign in again\.$/);
    expect(await page.$('#login')).not.toBeNull();
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    expect(errors.every((e) => /status of 401/.test(e))).toBe(true);
  });

  it('serves its files with cache headers and a Content-Security-Policy that allows only its own assets', async () => {
    const index = await http<string>(`${t.url}/dashboard`);
    expect(index.status).toBe(200);
    expect(index.headers['cache-control']).toBe('no-cache');
    expect(index.headers['content-security-policy']).toMatch(/default-src 'none'; script-src 'self'; style-src 'self'/);
    const script = /src="(\/dashboard\/app-[A-Z0-9]+\.js)"/.exec(index.body)![1];
    const asset = await http<string>(`${t.url}${script}`);
    expect([asset.status, asset.headers['cache-control'], asset.headers['content-type']]).toEqual([
      200,
      'public, max-age=31536000, immutable',
      'text/javascript; charset=utf-8',
    ]);
    expect((await http(`${t.url}/dashboard/other.js`)).status).toBe(404);
  });

  it('works by keyboard: sign in, then move to another view', async () => {
    await page.goto(`${t.url}/dashboard`, { waitUntil: 'networkidle0' });
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('login');
    await page.keyboard.type(BASIC.login);
    await page.keyboard.press('Tab');
    await page.keyboard.type(BASIC.password);
    await page.keyboard.press('Enter');
    await page.waitForSelector('.kpis');
    await page.focus('nav a:nth-of-type(2)');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#sort');
    expect(new URL(page.url()).searchParams.get('view')).toBe('terms');
    // Every form control has a label.
    const unlabelled = await page.$$eval('input, select, textarea', (controls) =>
      controls.filter((c) => !c.id || !document.querySelector(`label[for="${c.id}"]`)).map((c) => c.outerHTML),
    );
    expect(unlabelled).toEqual([]);
    expect(errors).toEqual([]);
  });

  it("draws the chart in the chosen zone, not the browser's", async () => {
    await page.emulateTimezone('America/New_York');
    await signedIn();
    await page.goto(`${t.url}/dashboard?view=overview&period=7d&tz=Asia/Tokyo`, { waitUntil: 'networkidle0' });
    await page.waitForSelector('.chart .u-over');
    const box = (await (await page.$('.chart .u-over'))!.boundingBox())!;
    await page.mouse.move(box.x + box.width - 2, box.y + box.height / 2);
    await page.waitForFunction(() => document.querySelector('.chart .u-legend .u-value')?.textContent !== '--');
    // Day buckets start at midnight in Tokyo (10:00 the day before in New York): the last one is today in Tokyo.
    const stats = (await api<{ series: Array<{ start: string }> }>('/search-stats?since=7d&tz=Asia/Tokyo')).body;
    const lastStart = Date.parse(stats.series[stats.series.length - 1].start);
    expect(dayIn('en-US', lastStart, 'Asia/Tokyo')).not.toBe(dayIn('en-US', lastStart, 'America/New_York'));
    expect((await texts('.chart .u-legend .u-value'))[0]).toBe(`${dayIn('en-US', lastStart, 'Asia/Tokyo')} (partial)`);
    expect(errors).toEqual([]);
  });

  it('takes the first instance the credential may use when the link names another', async () => {
    await page.goto(`${t.url}/dashboard?view=overview&period=7d&instance=prod`, { waitUntil: 'networkidle0' });
    await page.type('#jwt', jwtHeader({ permissions: ['search.read'], instances: ['stage'] }).authorization);
    await page.click('form:nth-of-type(2) button[type=submit]');
    await page.waitForSelector('#overview-title');
    expect(new URL(page.url()).searchParams.get('instance')).toBe('stage');
    expect(await page.$eval('#instance', (s) => (s as HTMLSelectElement).value)).toBe('stage');
    expect(await page.$('#login')).toBeNull();
    expect(errors).toEqual([]);
  });

  it('is readable on a phone (390x844): no horizontal scrolling on any view, tables scroll in their own box', async () => {
    await page.setViewport({ width: 390, height: 844 });
    await signedIn();
    const id = (await api<Array<{ id: string }>>(`/search-terms?since=7d&tz=${TZ}&_end=1`)).body[0].id;
    const views = [
      ['overview', '.kpis'],
      ['terms', '#sort'],
      ['terms&sort=rising', '#sort'],
      ['zero', '#unhandled'],
      ['zero&sort=rising', '#unhandled'],
      ['noclicks', '#list-title'],
      [`term&id=${id}`, '#term-title'],
      ['breakdown', '#breakdown-title'],
      ['breakdown&by=filter_set', '#breakdown-title'],
    ];
    const widths: Array<[string, number]> = [];
    for (const [view, ready] of views) {
      await page.goto(`${t.url}/dashboard?view=${view}&period=7d&tz=${TZ}`, { waitUntil: 'networkidle0' });
      await page.waitForSelector(ready);
      widths.push([view, await page.evaluate(() => document.documentElement.scrollWidth)]);
      // Every table is in a box that scrolls sideways when the table is wider than the screen.
      const boxes = await page.$$eval('main table:not(.u-legend)', (ts) => ts.map((t) => getComputedStyle(t.parentElement!).overflowX));
      expect(boxes.every((overflow) => overflow === 'auto')).toBe(true);
    }
    expect(widths).toEqual(views.map(([view]) => [view, 390]));
    expect(errors).toEqual([]);
  });

  it('marks the running day or hour as partial: drawn dashed, with a note and in the data table', async () => {
    await signedIn();
    const stats = (await api<{ from: string; series: Array<{ start: string }> }>(`/search-stats?since=7d&tz=${TZ}`)).body;
    // The window starts at the hour 7 days ago: its first day is partial unless that hour is midnight in the zone.
    const firstPartial = Date.parse(stats.from) > Date.parse(stats.series[0].start);
    expect(await texts('.partial-note')).toEqual([
      firstPartial
        ? 'The last day is still running and the first is only partly in the period: their numbers are partial (drawn dashed).'
        : 'The last day is still running: its numbers are partial (drawn dashed).',
    ]);
    const rows = await page.$$eval('.chart-data tbody tr', (trs) => trs.map((tr) => tr.children[0].textContent));
    expect(rows.length).toBe(stats.series.length);
    expect(rows[rows.length - 1]).toBe(`${dayIn('en-US', Date.parse(stats.series[stats.series.length - 1].start))} (partial)`);
    expect(rows[0]).toBe(dayIn('en-US', Date.parse(stats.series[0].start)) + (firstPartial ? ' (partial)' : ''));
    expect(rows[1]).toBe(dayIn('en-US', Date.parse(stats.series[1].start)));
    await page.goto(`${t.url}/dashboard?view=overview&period=1d&tz=${TZ}`, { waitUntil: 'networkidle0' });
    await page.waitForSelector('.kpis');
    // Hours: the first is whole, the last still running.
    expect(await texts('.partial-note')).toEqual(['The last hour is still running: its numbers are partial (drawn dashed).']);
    expect(errors).toEqual([]);
  });

  it('does not compare a period that has not ended with a whole previous one', async () => {
    await signedIn();
    const window = `period=custom&from=${isoDay(Date.now() - 3 * 24 * HOUR)}&to=${isoDay(Date.now() + 2 * 24 * HOUR)}&tz=${TZ}`;
    await page.goto(`${t.url}/dashboard?view=overview&${window}`, { waitUntil: 'networkidle0' });
    await page.waitForSelector('.kpis');
    expect(await texts('.kpi .change')).toEqual(['', '', '', '', '', '', '', '']);
    expect(await texts('.partial-period')).toEqual(['The period has not ended yet: its totals are not compared with the previous period.']);
    expect(errors).toEqual([]);
  });

  it('starts the count axes at 0', async () => {
    await signedIn();
    // The days of "bottes", 58 searches each: an axis fitted to the data would start near 58, not at 0.
    const from = isoDay(Date.now() - 2 * HOUR - 2 * 24 * HOUR);
    const to = isoDay(Date.now() - 2 * HOUR + 24 * HOUR);
    const window = `period=custom&from=${from}&to=${to}&tz=${TZ}`;
    const id = (await api<Array<{ id: string; search_phrase: string }>>(`/search-terms?since=7d&tz=${TZ}`)).body.find(
      (x) => x.search_phrase === 'bottes',
    )!.id;
    const detail = (await api<{ series: Array<{ count: number }> }>(`/search-terms/${id}?from=${from}&to=${to}&tz=${TZ}`)).body;
    expect(detail.series.map((b) => b.count)).toEqual([58, 58, 58]);
    await page.goto(`${t.url}/dashboard?view=term&id=${id}&${window}`, { waitUntil: 'networkidle0' });
    await page.waitForSelector('.chart [data-y-min]');
    expect(await page.$eval('.chart [data-y-min]', (e) => (e as HTMLElement).dataset.yMin)).toBe('0');
    await page.goto(`${t.url}/dashboard?view=overview&${window}`, { waitUntil: 'networkidle0' });
    await page.waitForSelector('.chart [data-y-min]');
    expect(await page.$eval('.chart [data-y-min]', (e) => (e as HTMLElement).dataset.yMin)).toBe('0');
    expect(errors).toEqual([]);
  });

  it("writes dates and numbers as the browser's locale does (de-DE)", async () => {
    await page.close();
    await openPage('de-DE');
    await signedIn();
    const stats = (
      await api<{ from: string; totals: { zero_hit_rate: number }; series: Array<{ start: string }> }>(`/search-stats?since=7d&tz=${TZ}`)
    ).body;
    const firstPartial = Date.parse(stats.from) > Date.parse(stats.series[0].start);
    const values = await texts('.kpi .value');
    expect(values[0]).toBe('1.234');
    expect(values[2]).toBe(percent('de-DE', stats.totals.zero_hit_rate));
    expect(values[2]).toMatch(/^\d+,\d\s%$/);
    const first = await page.$eval('.chart-data tbody tr td', (td) => td.textContent);
    expect(first).toBe(dayIn('de-DE', Date.parse(stats.series[0].start)) + (firstPartial ? ' (partial)' : ''));
    expect(first).toMatch(/^\d\d\.\d\d\.\d{4}/);
    expect(await page.$eval('.updated', (p) => p.textContent)).toMatch(/\d\d\.\d\d\.\d{4}/);
    expect(errors).toEqual([]);
  });

  it('offers the languages of the period in a select, most searched first', async () => {
    await signedIn();
    const languages = (await api<{ languages: Array<{ language: string }> }>(`/search-stats?since=7d&tz=${TZ}`)).body.languages;
    expect(languages.map((l) => l.language)).toEqual(['en', 'fr', 'de']);
    const options = () => page.$$eval('#language option', (os) => os.map((o) => [o.value, o.textContent]));
    expect(await options()).toEqual([
      ['', 'All languages'],
      ['en', 'en (1,000 searches)'],
      ['fr', 'fr (174 searches)'],
      ['de', 'de (60 searches)'],
    ]);
    await page.select('#language', 'fr');
    await page.click('.filters button[type=submit]');
    await page.waitForFunction(() => location.search.includes('language=fr'));
    await page.waitForFunction(() => document.querySelector('.kpi .value')?.textContent === '174');
    // Still every language of the period, the chosen one selected; on the other views too.
    expect((await options()).map(([value]) => value)).toEqual(['', 'en', 'fr', 'de']);
    await page.click('nav a:nth-of-type(2)');
    await page.waitForSelector('#sort');
    await page.waitForSelector('#language option[value=de]');
    expect((await options()).map(([value]) => value)).toEqual(['', 'en', 'fr', 'de']);
    expect(await page.$eval('#language', (s) => (s as HTMLSelectElement).value)).toBe('fr');
    expect(errors).toEqual([]);
  });

  it('says what each count counts; a term shows all its searches, those with results and those without', async () => {
    await signedIn();
    expect(await page.$$eval('.side-by-side table thead th:nth-child(2)', (ths) => ths.map((th) => th.textContent))).toEqual([
      'Searches with results',
      'Searches without results',
    ]);
    expect((await texts('.kpi h3'))[0]).toBe('Searches (all)');
    const top = (await api<Array<{ id: string; search_phrase: string; count: number }>>(`/search-terms?since=7d&tz=${TZ}&_end=10`)).body;
    const term = top.find((x) => x.search_phrase === 'red shoes')!;
    const detail = (await api<{ count: number; zero_hit_count: number }>(`/search-terms/${term.id}?since=7d&tz=${TZ}`)).body;
    expect(detail.zero_hit_count).toBeGreaterThan(0);
    await page.click(`.side-by-side table a[href*="${term.id}"]`);
    await page.waitForSelector('#term-title');
    expect(
      await page.$$eval('.kpi', (ks) => ks.map((k) => [k.querySelector('h3')!.textContent, k.querySelector('.value')!.textContent])),
    ).toEqual([
      ['All searches', String(detail.count)],
      ['With results', String(detail.count - detail.zero_hit_count)],
      ['Without results', String(detail.zero_hit_count)],
    ]);
    // The list's number is the term's "with results".
    expect(term.count).toBe(detail.count - detail.zero_hit_count);
    expect(errors).toEqual([]);
  });

  it('shows growth and change on the rising list, and says that it sorts by growth', async () => {
    await signedIn();
    await page.goto(`${t.url}/dashboard?view=terms&period=1d&tz=${TZ}&sort=rising`, { waitUntil: 'networkidle0' });
    await page.waitForSelector('main table tbody tr');
    const rising = (
      await api<Array<{ search_phrase: string; count: number; previous_count: number }>>(
        `/search-terms?since=1d&tz=${TZ}&sort=rising&_end=25`,
      )
    ).body;
    expect(await texts('main table thead th')).toEqual([
      'Term',
      'Searches with results',
      'Previous period',
      'Growth',
      'Change',
      'Click-through rate',
      'Conversion rate',
      'Average click position',
      'Conversion value',
      'Revenue (purchases)',
    ]);
    expect(await texts('main table thead th[aria-sort=descending]')).toEqual(['Growth']);
    expect(await texts('main table caption')).toEqual(['Top terms, largest growth in searches first']);
    const rows = await page.$$eval('main table tbody tr', (trs) => trs.map((tr) => Array.from(tr.children).map((td) => td.textContent)));
    expect(rows.map((r) => [r[0], r[3]])).toEqual(
      rising.map((x) => [
        x.search_phrase,
        `${x.count > x.previous_count ? '+' : ''}${(x.count - x.previous_count).toLocaleString('en-US')}`,
      ]),
    );
    expect(rows.map((r) => r[3])).toEqual(['+8', '0', '-200']);
    expect(rows.map((r) => r[4])).toEqual(['new', '0.0%', '-50.0%']);
    expect(errors).toEqual([]);
  });

  it('names the CSV file after the table, the period and the filters', async () => {
    const downloaded = await catchDownloads();
    await signedIn();
    await page.goto(
      `${t.url}/dashboard?view=zero&period=custom&from=2026-11-01&to=2026-12-01&tz=${TZ}&language=de&bots=true&instance=stage`,
      {
        waitUntil: 'networkidle0',
      },
    );
    await page.waitForSelector('#unhandled');
    await page.click('#unhandled');
    await page.waitForFunction(() => location.search.includes('unhandled=true'));
    await page.waitForSelector('#unhandled:checked');
    await page.click('.controls button');
    expect((await downloaded()).name).toBe('zero-result-terms_2026-11-01_2026-11-30_de_with-bots_unhandled_stage.csv');
    // A shared link with date-times (the API takes them) and a language as someone typed it.
    await page.goto(`${t.url}/dashboard?view=terms&period=custom&from=2026-11-20T10:00&to=2026-11-23T10:00&tz=${TZ}&language=DE`, {
      waitUntil: 'networkidle0',
    });
    await page.waitForSelector('#sort');
    expect(await page.$eval('#language', (s) => (s as HTMLSelectElement).value)).toBe('de');
    await page.click('.controls button');
    expect((await downloaded()).name).toBe('top-terms_2026-11-20_2026-11-23_de.csv');
    // A preset: the days it covers in the zone, today the last; the default instance is not named.
    await page.goto(`${t.url}/dashboard?view=terms&period=7d&tz=${TZ}&sort=rising`, { waitUntil: 'networkidle0' });
    await page.waitForSelector('#sort');
    await page.click('.controls button');
    const since = Math.floor((Date.now() - 7 * 24 * HOUR) / HOUR) * HOUR;
    expect((await downloaded()).name).toBe(`top-terms_${isoDay(since)}_${isoDay(Date.now())}_rising.csv`);
    expect(errors).toEqual([]);
  });
});

describeBrowser('the dashboard when the API answers 429', () => {
  it('shows the rate limit as a readable message', async () => {
    const t = await startApp({ RATE_LIMIT_PER_MINUTE: '2' });
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      await page.goto(`${t.url}/dashboard`, { waitUntil: 'networkidle0' });
      await page.type('#login', BASIC.login);
      await page.type('#password', BASIC.password);
      await page.click('form button[type=submit]');
      await page.waitForSelector('#overview-title');
      // The limit counts per route: the third overview in a minute is one too many.
      await page.click('.filters button[type=submit]');
      await page.waitForSelector('#overview-title');
      await page.click('.filters button[type=submit]');
      await page.waitForSelector('[role=alert]');
      expect((await textsOf(page, '[role=alert]'))[0]).toMatch(/^Too many requests: .*\(retry in \d+ s\)$/);
    } finally {
      await browser.close();
      await t.close();
    }
  }, 60_000);
});

/**
 * The engagement views (clicks and conversions) in Chromium: searches sent with ids and their clicks and conversions
 * written straight into storage (test/support/engagement.ts), every number shown equal to the API's answer for the
 * same filters.
 */
describeBrowser('the dashboard’s clicks and conversions in Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  const now = Date.now();
  const DAY = 24 * HOUR;
  const WINDOW = `since=7d&tz=${encodeURIComponent(TZ)}`;

  type Fields = {
    click_through_rate: number | null;
    conversion_rate: number | null;
    average_click_position: number | null;
    tracked_searches: number;
    clicked_searches: number;
    revenue: Record<string, number>;
    purchase_revenue: Record<string, number>;
  };
  type Term = Fields & { id: string; search_phrase: string; count: number };

  const rate = (r: number | null) => (r === null ? '–' : percent('en-US', r));
  // Per currency in the order of the codes, as en-US writes each: "€35.00, $5.00".
  const money = (amounts: Record<string, number>) =>
    Object.keys(amounts)
      .sort()
      .map((code) => new Intl.NumberFormat('en-US', { style: 'currency', currency: code }).format(amounts[code]))
      .join(', ') || '–';
  const position = (p: number | null) =>
    p === null ? '–' : new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(p);
  const points = (current: number | null, previous: number | null | undefined) =>
    current === null || previous === null || previous === undefined
      ? ''
      : `${new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1, signDisplay: 'exceptZero' }).format(
          (current - previous) * 100,
        )} points vs previous period`;

  beforeAll(async () => {
    t = await startApp();
    const ch = t.app.get(ClickHouseService);
    const searches: Search[] = [];
    const interactions: Interaction[] = [];
    const search = (phrase: string, ageMs: number, language = 'en', hits = 5): string => {
      const id = randomUUID();
      searches.push({ id, phrase, ts: now - ageMs, language, bot: false, hits });
      return id;
    };
    const click = (searchId: string, objectId: string, pos: number) =>
      interactions.push({ type: 'click', searchId, objectId, position: pos, subtype: '', micros: 0, currency: '', ts: now - HOUR });
    const convert = (
      searchId: string,
      objectId: string,
      subtype: Interaction['subtype'] = 'purchase',
      micros = 25_000_000,
      currency = 'EUR',
    ) => interactions.push({ type: 'conversion', searchId, objectId, position: 0, subtype, micros, currency, ts: now - HOUR });
    // shoes: 6 tracked searches, 4 clicked (positions 1, 1, 3, 25), one purchased (25 EUR), one added to the cart
    // (10 EUR: a conversion value, not a purchase's revenue).
    const shoes = Array.from({ length: 6 }, (_, i) => search('shoes', 2 * HOUR + (i % 3) * DAY));
    click(shoes[0], 'sku-1', 1);
    click(shoes[1], 'sku-1', 1);
    click(shoes[2], 'sku-2', 3);
    click(shoes[3], 'sku-3', 25);
    convert(shoes[0], 'sku-1');
    convert(shoes[1], 'sku-1', 'addToCart', 10_000_000);
    // dress: 5 tracked searches, one clicked; three more in German, none clicked.
    const dress = Array.from({ length: 5 }, (_, i) => search('dress', 3 * HOUR + (i % 2) * DAY));
    click(dress[0], 'sku-9', 2);
    for (let i = 0; i < 3; i++) {
      search('kleid', 3 * HOUR, 'de');
    }
    // hat: one tracked search, clicked and purchased in another currency; socks: searches without an id (never
    // tracked), and one that found nothing.
    const hat = search('hat', 4 * HOUR);
    click(hat, 'sku-5', 2);
    convert(hat, 'sku-5', 'purchase', 5_000_000, 'USD');
    searches.push({ phrase: 'socks', ts: now - 2 * HOUR, language: 'en', bot: false, hits: 4 });
    search('socks', 2 * HOUR, 'en', 0);
    // The previous period: 4 tracked searches of shoes, one clicked.
    const before = Array.from({ length: 4 }, () => search('shoes', 8 * DAY));
    click(before[0], 'sku-1', 1);
    await insertSearches(ch, searches);
    await insertInteractions(ch, interactions);
    t.app.get(DataVersions).bump(CUSTOMER, INSTANCE);
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t.close();
  });
  beforeEach(async () => {
    page = await browser.newPage();
    await emulateLocale(page, 'en-US');
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

  const api = async <T>(p: string) => (await http<T>(`${t.url}${p}`, { headers: basicHeader() })).body;
  const rows = (selector: string) =>
    page.$$eval(selector, (trs) => trs.map((tr) => Array.from(tr.children).map((td) => (td.textContent ?? '').trim())));

  it('shows the click-through and conversion rates and their change on the overview, and the rate per day', async () => {
    const stats = await api<{
      totals: Fields & { searches: number };
      previous: Fields;
      series: Array<Fields & { start: string }>;
    }>(`/search-stats?${WINDOW}&compare=previous&engagement=true`);
    expect(stats.totals.tracked_searches).toBe(15);
    const cards = await page.$$eval('.kpi', (ks) => ks.map((k) => Array.from(k.children).map((c) => (c.textContent ?? '').trim())));
    expect(cards.slice(4)).toEqual([
      [
        'Click-through rate',
        rate(stats.totals.click_through_rate),
        points(stats.totals.click_through_rate, stats.previous.click_through_rate),
      ],
      ['Conversion rate', rate(stats.totals.conversion_rate), points(stats.totals.conversion_rate, stats.previous.conversion_rate)],
      ['Conversion value', money(stats.totals.revenue), ''],
      ['Revenue (purchases)', money(stats.totals.purchase_revenue), ''],
    ]);
    expect(cards[6][1]).toBe('€35.00, $5.00');
    expect(cards[7][1]).toBe('€25.00, $5.00');
    expect(cards[4][2]).toMatch(/^\+\d+\.\d points vs previous period$/);
    // The chart's data table: the rate per day, '–' for a day without tracked searches.
    const table = await rows('.chart-data tbody tr');
    expect(table.map((r) => r[3])).toEqual(stats.series.map((b) => rate(b.click_through_rate)));
    expect(table.map((r) => r[3])).toContain('–');
    expect(await textsOf(page, '.chart-data thead th')).toEqual(['Start', 'Searches (all)', 'Zero-hit rate', 'Click-through rate']);
  });

  it('adds the rates and the average click position to the top terms, and to their CSV', async () => {
    const downloaded = await downloadsOf(page);
    await page.click('nav a:nth-of-type(2)');
    await page.waitForSelector('#sort');
    const terms = await api<Term[]>(`/search-terms?${WINDOW}&engagement=true&_start=0&_end=25`);
    expect(await textsOf(page, 'main table thead th')).toEqual([
      'Term',
      'Searches with results',
      'Click-through rate',
      'Conversion rate',
      'Average click position',
      'Conversion value',
      'Revenue (purchases)',
    ]);
    expect(await rows('main table tbody tr')).toEqual(
      terms.map((x) => [
        x.search_phrase,
        x.count.toLocaleString('en-US'),
        rate(x.click_through_rate),
        rate(x.conversion_rate),
        position(x.average_click_position),
        money(x.revenue),
        money(x.purchase_revenue),
      ]),
    );
    expect((await rows('main table tbody tr')).find((r) => r[0] === 'socks')).toEqual(['socks', '1', '–', '–', '–', '–', '–']);
    expect((await rows('main table tbody tr')).find((r) => r[0] === 'shoes')?.slice(5)).toEqual(['€35.00', '€25.00']);
    await page.click('.controls button');
    const csv = (await downloaded()).text;
    const answer = await http<string>(`${t.url}/search-terms?${WINDOW}&engagement=true&format=csv`, { headers: basicHeader() });
    expect(csv).toBe(answer.body);
    expect(csv.split('\r\n')[0]).toMatch(/,click_through_rate,clicks,average_click_position,converted_searches,conversion_rate,/);
  });

  it('lists the searches without clicks as the API does, with the same filters', async () => {
    await page.click('nav a:nth-of-type(4)');
    await page.waitForFunction(() => new URL(location.href).searchParams.get('view') === 'noclicks');
    await page.waitForSelector('#list-title');
    expect(await textsOf(page, '#list-title')).toEqual(['Searches without clicks']);
    const shown = async (filters: string) => {
      const list = await api<Term[]>(`/search-terms?${filters}&hits=true&sort=no_clicks&engagement=true&_start=0&_end=25`);
      expect(await rows('main table tbody tr')).toEqual(
        list.map((x) => [
          x.search_phrase,
          x.tracked_searches.toLocaleString('en-US'),
          (x.tracked_searches - x.clicked_searches).toLocaleString('en-US'),
          rate(x.click_through_rate),
        ]),
      );
      return list;
    };
    expect(await textsOf(page, 'main table thead th')).toEqual([
      'Term',
      'Tracked searches',
      'Searches without clicks',
      'Click-through rate',
    ]);
    expect(await textsOf(page, 'main table thead th[aria-sort=descending]')).toEqual(['Searches without clicks']);
    expect((await shown(WINDOW)).map((x) => x.search_phrase).slice(0, 3)).toEqual(['dress', 'kleid', 'shoes']);
    // Its CSV is the API's for the same query, named after the list.
    const downloaded = await downloadsOf(page);
    await page.click('.controls button');
    const file = await downloaded();
    const since = Math.floor((Date.now() - 7 * DAY) / HOUR) * HOUR;
    expect(file.name).toBe(`searches-without-clicks_${isoDay(since)}_${isoDay(Date.now())}.csv`);
    const answer = await http<string>(`${t.url}/search-terms?${WINDOW}&hits=true&sort=no_clicks&engagement=true&format=csv`, {
      headers: basicHeader(),
    });
    expect(file.text).toBe(answer.body);
    // A language from the filters form.
    await page.select('#language', 'de');
    await page.click('.filters button[type=submit]');
    await page.waitForFunction(() => location.search.includes('language=de'));
    await page.waitForFunction(() => document.querySelectorAll('main table tbody tr').length === 1);
    expect((await shown(`${WINDOW}&language=de`)).map((x) => x.search_phrase)).toEqual(['kleid']);
    expect(new URL(page.url()).searchParams.get('view')).toBe('noclicks');
  });

  it("shows a term's clicks per position and its most clicked objects", async () => {
    const id = (await api<Term[]>(`/search-terms?${WINDOW}`)).find((x) => x.search_phrase === 'shoes')!.id;
    await page.goto(`${t.url}/dashboard?view=term&id=${id}&period=7d&tz=${TZ}`, { waitUntil: 'networkidle0' });
    await page.waitForSelector('#engagement-title');
    const detail = await api<
      Fields & {
        positions: Array<{ position: number; clicks: number }>;
        objects: Array<{ object_id: string; clicks: number; conversions: number }>;
      }
    >(`/search-terms/${id}?${WINDOW}&engagement=true`);
    expect(await page.$$eval('.figures > div', (ds) => ds.map((d) => [d.children[0].textContent, d.children[1].textContent]))).toEqual([
      ['Tracked searches', detail.tracked_searches.toLocaleString('en-US')],
      ['Searches without clicks', (detail.tracked_searches - detail.clicked_searches).toLocaleString('en-US')],
      ['Click-through rate', rate(detail.click_through_rate)],
      ['Conversion rate', rate(detail.conversion_rate)],
      ['Average click position', position(detail.average_click_position)],
      ['Conversion value', money(detail.revenue)],
      ['Revenue (purchases)', money(detail.purchase_revenue)],
    ]);
    expect(detail.positions).toHaveLength(21);
    const chart = await page.$$eval('.chart', (figures) =>
      figures
        .filter((f) => f.querySelector('figcaption')?.textContent === 'Clicks per position of the result')
        .map((f) =>
          Array.from(f.querySelectorAll('.chart-data tbody tr')).map((tr) => Array.from(tr.children).map((td) => td.textContent)),
        ),
    );
    expect(chart).toEqual([detail.positions.map((p) => [p.position === 21 ? '21+' : String(p.position), String(p.clicks)])]);
    expect(chart[0][0]).toEqual(['1', '2']);
    expect(chart[0][20]).toEqual(['21+', '1']);
    expect(await rows('table.objects tbody tr')).toEqual(detail.objects.map((o) => [o.object_id, String(o.clicks), String(o.conversions)]));
    // Purchased once, added to the cart once.
    expect(detail.objects[0]).toEqual({ object_id: 'sku-1', clicks: 2, conversions: 2 });
  });
});
