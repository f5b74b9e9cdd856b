import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import type { Browser } from 'puppeteer-core';
import { ClickHouseService } from '@app/clickhouse';
import { personalHash } from '@app/contracts';
import { describeBrowser, launchBrowser, watchErrors } from './support/browser';
import { eventually } from './support/storage';
import { basicHeader, http, startApp, type TestApp } from './support/test-app';

/** search-insights' browser build (ES module), as a shop's page loads it: sendBeacon first, else XHR. */
const CLIENT = readFileSync(path.resolve(__dirname, '../node_modules/search-insights/dist/search-insights-browser.mjs'), 'utf8');

/**
 * A shop's page on another origin than the service: it loads search-insights, points its `host` at the service and
 * sends what a shopper's clicks and purchase send. `?xhr` takes sendBeacon away first, so the client falls back to
 * XHR (application/json, so with a CORS preflight).
 */
function page(service: string, apiKey: string, userToken: string, xhr: boolean): string {
  return `<!doctype html><html><body><script type="module">
    ${xhr ? "Object.defineProperty(Navigator.prototype, 'sendBeacon', { value: undefined, configurable: true });" : ''}
    const { default: aa } = await import('/search-insights.mjs');
    aa('init', ${JSON.stringify({ appId: 'demo', apiKey, host: service, userToken })});
    const sent = await Promise.all([
      aa('clickedObjectIDsAfterSearch', { eventName: 'clicked', index: 'products', queryID: '0190c7a45e4f7b6a9c3d2f1e0d9c8b7a',
        objectIDs: ['sku-1'], positions: [2] }),
      aa('purchasedObjectIDsAfterSearch', { eventName: 'purchased', index: 'products', queryID: '0190c7a45e4f7b6a9c3d2f1e0d9c8b7a',
        objectIDs: ['sku-1', 'sku-2'], objectData: [{ price: '19.90', quantity: 1 }, { price: 5, quantity: 2 }], currency: 'EUR' }),
      aa('clickedFilters', { eventName: 'filtered', index: 'products', filters: ['brand:Apple'] }),
    ]);
    document.title = 'sent ' + sent.join(',');
  </script></body></html>`;
}

describeBrowser('search-insights in headless Chromium, from a page on another origin (sendBeacon and XHR)', () => {
  let t: TestApp;
  let browser: Browser;
  let shop: Server;
  let shopOrigin: string;
  let apiKey: string;

  beforeAll(async () => {
    t = await startApp({ COLLECT_PER_MINUTE: '0' });
    let current = { service: '', userToken: '' };
    shop = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://shop');
      if (url.pathname === '/search-insights.mjs') {
        res.writeHead(200, { 'content-type': 'text/javascript' }).end(CLIENT);
        return;
      }
      current = { service: t.url, userToken: url.searchParams.get('user') ?? '' };
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(page(current.service, apiKey, current.userToken, url.searchParams.has('xhr')));
    });
    await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
    // Another origin than the service's (http://127.0.0.1:<port>): another host name and port.
    shopOrigin = `http://localhost:${(shop.address() as AddressInfo).port}`;
    const created = await http<{ secret: string }>(`${t.url}/secret`, {
      method: 'POST',
      headers: { ...basicHeader(), 'content-type': 'application/json' },
      body: JSON.stringify({ description: 'shop page', preset: 'collector', origins: [shopOrigin] }),
    });
    expect(created.status).toBe(201);
    apiKey = created.body.secret;
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => shop?.close(resolve));
    await t?.close();
  });

  const stored = (userToken: string) => {
    const ch = t.app.get(ClickHouseService);
    return ch.query<{
      type: string;
      subtype: string;
      object_id: string;
      position: number;
      value: string;
      currency: string;
      filters: string[];
    }>(
      `SELECT type, subtype, object_id, position, toString(value) AS value, currency, filters FROM ${ch.table('interactions')}
       WHERE user_token_hash = {hash:String} ORDER BY event_name, object_index`,
      { hash: personalHash('demo', userToken) },
    );
  };

  it.each([
    ['sendBeacon', 'beacon-shopper', '', ['POST text/plain;charset=UTF-8']],
    ['XHR', 'xhr-shopper', '&xhr', ['OPTIONS -', 'POST application/json']],
  ])('stores the clicks, purchase and filter click sent with %s, exactly', async (_, userToken, flag, requests) => {
    const tab = await browser.newPage();
    const errors = watchErrors(tab);
    // What reached the service: the beacon's text/plain, or XHR's preflight and JSON.
    const seen = new Set<string>();
    await tab.setRequestInterception(true);
    tab.on('request', (request) => {
      if (request.url().startsWith(`${t.url}/1/events?`)) {
        seen.add(`${request.method()} ${request.headers()['content-type'] ?? '-'}`);
      }
      void request.continue();
    });
    await tab.goto(`${shopOrigin}/?user=${userToken}${flag}`);
    await tab.waitForFunction(() => document.title.startsWith('sent '), { timeout: 10_000 });
    expect(await tab.title()).toBe('sent true,true,true');
    const rows = await eventually(
      () => stored(userToken),
      (r) => r.length === 4,
      10_000,
    );
    expect(rows).toEqual([
      { type: 'click', subtype: '', object_id: 'sku-1', position: 2, value: '0', currency: '', filters: [] },
      { type: 'click', subtype: '', object_id: '', position: 0, value: '0', currency: '', filters: ['brand:Apple'] },
      { type: 'conversion', subtype: 'purchase', object_id: 'sku-1', position: 0, value: '29.9', currency: 'EUR', filters: [] },
      { type: 'conversion', subtype: 'purchase', object_id: 'sku-2', position: 0, value: '0', currency: 'EUR', filters: [] },
    ]);
    expect(errors).toEqual([]);
    expect([...seen].sort()).toEqual(requests);
    await tab.close();
  });
});
