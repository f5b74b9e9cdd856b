/// <reference lib="dom" />
// page.$eval and friends run their callbacks in the page: DOM types for those callbacks.
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { describeBrowser, launchBrowser, watchErrors } from './support/browser';
import { BASIC, basicHeader, http, jwtHeader, startApp, type TestApp } from './support/test-app';

/** The dashboard (DESIGN.md section 11) in a real headless Chromium, against the service with seeded events. */
const HOUR = 3_600_000;
const TZ = 'Europe/Berlin';
const PHRASES = ['red shoes', 'blue hat', 'socks', 'winter coat', 'Red  Shoes'];

function textsOf(page: Page, selector: string): Promise<string[]> {
  return page.$$eval(selector, (nodes) => nodes.map((n) => (n.textContent ?? '').trim()));
}

describeBrowser('the dashboard in Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    t = await startApp();
    const now = Date.now();
    const events = Array.from({ length: 60 }, (_, i) => ({
      phrase: PHRASES[i % PHRASES.length],
      language: 'de',
      hits: i % 3 === 0 ? 0 : 4,
      ts: now - (i % 5) * 24 * HOUR - HOUR,
    }));
    const body = JSON.stringify({ events });
    const sent = await http<{ accepted: number }>(`${t.url}/events`, {
      method: 'POST',
      headers: { ...basicHeader(), 'content-type': 'application/json' },
      body,
    });
    expect(sent.body.accepted).toBe(60);
    const saved = await http(`${t.url}/entities/synonym/syn-socks`, {
      method: 'PUT',
      headers: { ...basicHeader(), 'content-type': 'application/json' },
      body: JSON.stringify({ searchPhrases: ['socks'] }),
    });
    expect(saved.status).toBe(201);
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t.close();
  });

  beforeEach(async () => {
    page = await browser.newPage();
    await page.emulateTimezone(TZ);
    await page.setViewport({ width: 1280, height: 800 });
    errors = watchErrors(page);
  });
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
    expect(await texts('[role=alert]')).toEqual(['Sign-in failed: wrong login or password, or an invalid token.']);
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
        totals: { searches: number; zero_hit_rate: number; distinct_terms: number };
        series: Array<{ searches: number; zero_hit_rate: number }>;
      }>(`/search-stats?since=7d&tz=${TZ}&compare=previous`)
    ).body;
    expect(await texts('.kpi .value')).toEqual([
      String(stats.totals.searches),
      `${(stats.totals.zero_hit_rate * 100).toFixed(1)} %`,
      String(stats.totals.distinct_terms),
    ]);
    // Hovering over the chart shows the bucket's values in its legend.
    const plot = (await page.$('.chart .u-over'))!;
    const box = (await plot.boundingBox())!;
    await page.mouse.move(box.x + box.width - 2, box.y + box.height / 2);
    await page.waitForFunction(() => document.querySelectorAll('.chart .u-legend .u-value')[1]?.textContent !== '–');
    const legend = await texts('.chart .u-legend .u-series .u-value');
    const last = stats.series[stats.series.length - 1];
    expect(legend.slice(1)).toEqual([last.searches.toLocaleString('en'), `${(last.zero_hit_rate * 100).toFixed(1)} %`]);
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
    expect((await rows()).find((r) => r[0] === 'socks')?.[2]).toBe('synonym: syn-socks');
    await page.click('#unhandled');
    await page.waitForFunction(() => location.search.includes('unhandled=true'));
    await page.waitForSelector('#unhandled:checked');
    const unhandled = (await api<Array<{ search_phrase: string }>>(`/search-terms?since=7d&tz=${TZ}&hits=false&handled=false&_end=25`))
      .body;
    expect((await rows()).map((r) => r[0])).toEqual(unhandled.map((x) => x.search_phrase));
    expect((await rows()).map((r) => r[0])).not.toContain('socks');
    expect(errors).toEqual([]);
  });

  it("opens a term's detail with its chart and original spellings", async () => {
    await signedIn();
    await page.click('.side-by-side table a');
    await page.waitForSelector('#term-title');
    const id = new URL(page.url()).searchParams.get('id')!;
    const detail = (await api<{ variants: Array<{ phrase: string; count: number }> }>(`/search-terms/${id}?since=7d&tz=${TZ}`)).body;
    const spellings = await page.$$eval('main section > table tbody tr', (trs) =>
      trs.map((tr) => Array.from(tr.children).map((td) => td.textContent)),
    );
    expect(spellings).toEqual(detail.variants.map((v) => [v.phrase, String(v.count)]));
    expect(await page.$('.chart canvas')).not.toBeNull();
    expect(errors).toEqual([]);
  });

  it('keeps the filters in the URL, and a reload restores them', async () => {
    await signedIn();
    await page.select('#period', '30d');
    await page.$eval('#language', (input) => ((input as HTMLInputElement).value = 'de'));
    await page.click('.filters button[type=submit]');
    await page.waitForFunction(() => location.search.includes('period=30d'));
    expect(new URL(page.url()).searchParams.get('language')).toBe('de');
    await page.reload({ waitUntil: 'networkidle0' });
    await page.waitForSelector('.kpis');
    expect(await page.$eval('#period', (s) => (s as HTMLSelectElement).value)).toBe('30d');
    expect(await page.$eval('#language', (s) => (s as HTMLInputElement).value)).toBe('de');
    expect(await page.$eval('#tz', (s) => (s as HTMLInputElement).value)).toBe(TZ);
    expect(errors).toEqual([]);
  });

  it('downloads the CSV of a table, equal to the API answer', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'dashboard-csv-'));
    const session = await page.createCDPSession();
    await session.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: dir });
    await signedIn();
    await page.click('nav a:nth-of-type(3)');
    await page.waitForSelector('#unhandled');
    await page.click('.controls button');
    for (let i = 0; i < 100 && !readdirSync(dir).some((f) => f.endsWith('.csv')); i++) await new Promise((r) => setTimeout(r, 50));
    const csv = readFileSync(path.join(dir, 'zero-result-terms.csv'), 'utf8');
    const res = await http<string>(`${t.url}/search-terms?since=7d&tz=${encodeURIComponent(TZ)}&hits=false&format=csv`, {
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
    // Day buckets start at midnight in Tokyo (10:00 the day before in New York).
    expect((await texts('.chart .u-legend .u-value'))[0]).toMatch(/12:00am$/);
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

  it('is readable on a phone (390x844): no horizontal scrolling', async () => {
    await page.setViewport({ width: 390, height: 844 });
    await signedIn();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.click('nav a:nth-of-type(3)');
    await page.waitForSelector('#unhandled');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
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
