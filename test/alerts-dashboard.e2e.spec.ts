/// <reference lib="dom" />
import type { Browser, Page } from 'puppeteer-core';
import { ClickHouseService } from '@app/clickhouse';
import { NotificationsRepository } from '@app/notifications';
import { AlertClock } from '../apps/query/src/alerts/alert-clock';
import { AlertsService } from '../apps/query/src/alerts/alerts.service';
import { describeBrowser, launchBrowser, watchErrors } from './support/browser';
import { insertSearches } from './support/engagement';
import { BASIC, basicHeader, http, jwtHeader, startApp, type TestApp } from './support/test-app';

/** The overview's "Recent alerts" (docs/alerts.md) in a real headless Chromium, after an evaluation at a set time. */
const HOUR = 3_600_000;

describeBrowser('the dashboard’s recent alerts in Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    t = await startApp();
    const hour = Math.floor(Date.now() / HOUR) * HOUR;
    await insertSearches(
      t.app.get(ClickHouseService),
      Array.from({ length: 25 }, (_, i) => ({ ts: hour - 3 * HOUR + i * 1000, phrase: 'sneker', language: 'de', bot: false, hits: 0 })),
    );
    const configured = await http(`${t.url}/configuration`, {
      method: 'PUT',
      headers: { ...basicHeader(), 'content-type': 'application/json' },
      body: JSON.stringify({ webhookConfig: { url: '' }, alertConfig: {} }),
    });
    expect(configured.status).toBe(200);
    jest.spyOn(t.app.get(AlertClock), 'now').mockReturnValue(hour + 5 * 60_000);
    await t.app.get(AlertsService).tick();
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t.close();
  });
  beforeEach(async () => {
    page = await browser.newPage();
    errors = watchErrors(page);
  });
  afterEach(() => page.close());

  async function openWith(authorization: string): Promise<void> {
    await page.goto(`${t.url}/dashboard`, { waitUntil: 'networkidle0' });
    await page.evaluate((value) => sessionStorage.setItem('search-analytics.credential', value), authorization);
    await page.reload({ waitUntil: 'networkidle0' });
    await page.waitForSelector('#overview-title');
  }

  it('lists a raised alert on the overview, newest first, with its time', async () => {
    await page.goto(`${t.url}/dashboard`, { waitUntil: 'networkidle0' });
    await page.type('#login', BASIC.login);
    await page.type('#password', BASIC.password);
    await page.click('form button[type=submit]');
    await page.waitForSelector('.recent-alerts li');
    const items = await page.$$eval('.recent-alerts li', (nodes) => nodes.map((n) => (n.textContent ?? '').trim()));
    expect(items).toHaveLength(1);
    expect(items[0]).toMatch(/ "sneker" found nothing 25 times in the last 24 h and is not handled in de$/);
    expect(await page.$eval('#alerts-title', (h) => h.textContent)).toBe('Recent alerts');
    expect(errors).toEqual([]);
  });

  it('still lists the alert after many newer notifications of other kinds', async () => {
    const notifications = t.app.get(NotificationsRepository);
    for (let i = 0; i < 60; i++) {
      await notifications.record(
        'demo',
        'live',
        'webhook-failed',
        `Webhook delivery to https://hooks.example.com failed: answered 500 (${i})`,
      );
    }
    await openWith(basicHeader().authorization);
    await page.waitForSelector('.recent-alerts li');
    expect(await page.$$eval('.recent-alerts li', (nodes) => nodes.map((n) => n.textContent))).toEqual([
      expect.stringMatching(/"sneker" found nothing 25 times/),
    ]);
  });

  it('shows no alerts panel to a credential without notifications:read', async () => {
    await openWith(jwtHeader({ permissions: ['search.read'] }).authorization);
    expect(await page.$('.recent-alerts')).toBeNull();
    await openWith(jwtHeader({ permissions: ['search.read', 'notifications.read'] }).authorization);
    expect(await page.$$eval('.recent-alerts li', (nodes) => nodes.length)).toBe(1);
    expect(errors).toEqual([]);
  });
});
