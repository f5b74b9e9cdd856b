/// <reference lib="dom" />
// page.$eval and friends run their callbacks in the page: DOM types for those callbacks.
import type { Browser, ElementHandle, Page } from 'puppeteer-core';
import { ENTITY_TYPES } from '@app/contracts';
import { describeBrowser, launchBrowser, watchErrors } from './support/browser';
import { webhookReceiver, type Receiver } from './support/receiver';
import { basicHeader, http, jwtHeader, startApp, type TestApp } from './support/test-app';

interface Entity {
  searchPhrases: string[];
  language: string | null;
  data: Record<string, unknown>;
}

const json = { ...basicHeader(), 'content-type': 'application/json' };
const ZERO_LIST = 'view=zero&period=7d&tz=UTC&instance=live';

/** Handling a zero-result term from the dashboard (docs/dashboard.md): the Handle form in a real Chromium. */
describeBrowser('handling a zero-result term from the dashboard', () => {
  let t: TestApp;
  let receiver: Receiver;
  let browser: Browser;
  let page: Page;
  let errors: string[];

  const entity = (path: string) => http<Entity>(`${t.url}/entities/${path}`, { headers: basicHeader() });
  const putEntity = async (path: string, body: unknown) => {
    const res = await http(`${t.url}/entities/${path}`, { method: 'PUT', headers: json, body: JSON.stringify(body) });
    expect([200, 201]).toContain(res.status);
  };

  beforeAll(async () => {
    t = await startApp({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
    receiver = await webhookReceiver(t.url);
    const searches = (n: number, phrase: string, hits: number) =>
      Array.from({ length: n }, () => ({ phrase, language: 'de', hits, ts: Date.now() - 60_000 }));
    const events = [
      // Misspellings that found nothing, and the spellings that found results.
      ...searches(6, 'sneker', 0),
      ...searches(5, 'sneaker', 4),
      ...searches(4, 'jaket', 0),
      ...searches(3, 'jacket', 2),
      ...searches(3, 'shooes', 0),
      ...searches(2, 'jumpr', 0),
    ];
    const sent = await http<{ accepted: number }>(`${t.url}/events`, { method: 'POST', headers: json, body: JSON.stringify({ events }) });
    expect(sent.body.accepted).toBe(events.length);
    await putEntity('synonym/syn-jacket', { searchPhrases: ['jakket'], data: { note: 'keep' } });
    await putEntity('synonym/syn-shoes', { searchPhrases: ['shoos'], language: 'en' });
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await receiver?.stop();
  });

  beforeEach(async () => {
    page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 800 });
    errors = watchErrors(page);
    receiver.reset();
  });
  afterEach(async () => {
    // The browser reports the deliberate 400 (a bad id), 404 (a new entity) and 412 (a stale ETag) answers; nothing else.
    expect(errors.filter((e) => !/status of (400|404|412)/.test(e))).toEqual([]);
    await page.close();
  });

  /** Signs in with `authorization` (kept in sessionStorage, as the sign-in form does) and opens the dashboard at `query`. */
  async function open(query: string, authorization = basicHeader().authorization): Promise<void> {
    await page.goto(`${t.url}/dashboard`, { waitUntil: 'networkidle0' });
    await page.evaluate((value) => sessionStorage.setItem('search-analytics.credential', value), authorization);
    await page.goto(`${t.url}/dashboard?${query}`, { waitUntil: 'networkidle0' });
  }

  /** The cells' texts of the zero-result list's row of `term`. */
  async function row(term: string): Promise<string[]> {
    const rows = await page.$$eval('main table tbody tr', (trs) => trs.map((tr) => Array.from(tr.children).map((td) => td.textContent)));
    return rows.find((r) => r[0] === term) ?? [];
  }

  /** Opens the Handle form of the list's row of `term`. */
  async function handle(term: string): Promise<void> {
    const rows = await page.$$('main table tbody tr');
    let button: ElementHandle | null = null;
    for (const tr of rows) {
      if ((await tr.$eval('td', (td) => td.textContent)) === term) {
        button = await tr.$('button::-p-text(Handle)');
      }
    }
    await button!.click();
    await page.waitForSelector('dialog.modal[open] #handle-id');
  }

  /** Types the entity id (replacing the one offered) and waits until the form has read that entity. */
  async function entityId(id: string, note: RegExp): Promise<void> {
    await page.$eval('#handle-id', (input) => ((input as HTMLInputElement).value = ''));
    await page.type('#handle-id', id);
    await page.keyboard.press('Tab');
    await page.waitForFunction(
      (source) => new RegExp(source).test(document.getElementById('handle-entity')?.textContent ?? ''),
      {},
      note.source,
    );
  }

  const alertText = () => page.$eval('dialog.modal [role=alert]', (p) => p.textContent);

  it('handles a term from the zero-result list with the suggestion picked: the webhook is called, the row shows the handler', async () => {
    await open(ZERO_LIST);
    await page.waitForSelector('main table');
    expect(await row('sneker')).toEqual(['sneker', '6', '0', 'Also without filters', 'unhandled', 'Handle']);
    await handle('sneker');
    // The labelled controls, the eleven types with synonym first.
    const labels = await page.$$eval('dialog.modal label', (ls) => ls.map((l) => l.textContent));
    expect(labels.slice(0, 3)).toEqual(['Entity type', 'Entity id', 'Language']);
    const types = await page.$$eval('#handle-type option', (os) => os.map((o) => o.value));
    expect([types[0], [...types].sort()]).toEqual(['synonym', [...ENTITY_TYPES].sort()]);
    expect(await page.$$eval('#handle-language option', (os) => os.map((o) => o.textContent))).toEqual(['All languages', 'de']);
    await page.waitForSelector('label[for=handle-suggestion-1]');
    expect(await page.$eval('label[for=handle-suggestion-1]', (l) => l.textContent)).toBe('sneaker (5 searches)');
    await entityId('syn-sneker', /No synonym with this id yet/);
    await page.click('#handle-suggestion-1');
    await page.click('dialog.modal button[type=submit]');
    await page.waitForFunction(() => !document.querySelector('dialog.modal'));
    await page.waitForFunction(() =>
      Array.from(document.querySelectorAll('main table tbody tr')).some((tr) =>
        tr.textContent?.startsWith('sneker60Also without filterssynonym: syn-sneker'),
      ),
    );
    expect(await row('sneker')).toEqual(['sneker', '6', '0', 'Also without filters', 'synonym: syn-sneker', '']);
    expect(receiver.calls.map((c) => c.body)).toEqual([
      { customer: 'demo', instance: 'live', type: 'synonym', ids: ['syn-sneker'], action: 'create' },
    ]);
    expect((await entity('synonym/syn-sneker')).body).toMatchObject({
      searchPhrases: ['sneker'],
      language: null,
      data: { suggestion: 'sneaker' },
    });
    // The handler's name opens its entity.
    await page.click('main table button.link::-p-text(synonym: syn-sneker)');
    await page.waitForSelector('dialog.modal dl.entity');
    const shown = await page.$$eval('dialog.modal dl.entity dd', (dds) => dds.map((dd) => dd.textContent));
    expect(shown.slice(0, 3)).toEqual(['All languages', 'sneker', 'sneaker']);
  });

  it('says the entity changed when it was changed after the form read it, and then merges with the new state', async () => {
    await open(ZERO_LIST);
    await page.waitForSelector('main table');
    await handle('jaket');
    await entityId('syn-jacket', /This synonym exists: it lists “jakket”, for all languages/);
    // Someone else changes the entity meanwhile.
    await putEntity('synonym/syn-jacket', { searchPhrases: ['jakket', 'jackett'], data: { note: 'changed' } });
    const before = await entity('synonym/syn-jacket');
    receiver.reset();
    await page.click('dialog.modal button[type=submit]');
    await page.waitForSelector('dialog.modal [role=alert]');
    expect(await alertText()).toBe(
      'The synonym syn-jacket was changed by someone else after this form read it: nothing was overwritten. ' +
        'It was read again: Save adds the term to its new state.',
    );
    const after = await entity('synonym/syn-jacket');
    expect([after.body, after.headers.etag]).toEqual([before.body, before.headers.etag]);
    expect(receiver.calls).toEqual([]);
    // Read again: saving now adds the term to the new state, keeping its data.
    await page.waitForFunction(() => document.getElementById('handle-entity')?.textContent?.includes('“jackett”'));
    await page.click('dialog.modal button[type=submit]');
    await page.waitForFunction(() => !document.querySelector('dialog.modal'));
    expect((await entity('synonym/syn-jacket')).body).toMatchObject({
      searchPhrases: ['jakket', 'jackett', 'jaket'],
      language: null,
      data: { note: 'changed' },
    });
    expect(receiver.calls.map((c) => c.body)).toEqual([
      { customer: 'demo', instance: 'live', type: 'synonym', ids: ['syn-jacket'], action: 'update' },
    ]);
  });

  it('leaves an entity of another language unchanged and says why; shows the API message of another error', async () => {
    await open(ZERO_LIST);
    await page.waitForSelector('main table');
    await handle('shooes');
    await entityId('syn-shoes', /This synonym exists: it lists “shoos”, for en only/);
    await page.select('#handle-language', 'de');
    const before = await entity('synonym/syn-shoes');
    await page.click('dialog.modal button[type=submit]');
    await page.waitForSelector('dialog.modal [role=alert]');
    expect(await alertText()).toBe('The synonym syn-shoes handles en only, not de: it was not changed. Choose another entity id.');
    const after = await entity('synonym/syn-shoes');
    expect([after.body, after.headers.etag]).toEqual([before.body, before.headers.etag]);
    // An id the API refuses: its message, nothing saved.
    await entityId('bad id!', /It cannot be read/);
    await page.click('dialog.modal button[type=submit]');
    await page.waitForFunction(() => document.querySelector('dialog.modal [role=alert]')?.textContent?.startsWith('Not saved'));
    expect(await alertText()).toBe('Not saved: id must be 1-200 characters of letters, digits and . _ : -');
    expect(receiver.calls).toEqual([]);
    expect(await row('shooes')).toEqual(['shooes', '3', '0', 'Also without filters', 'unhandled', 'Handle']);
  });

  it('handles a term from its detail, for one language; the detail then shows the handler', async () => {
    await open(ZERO_LIST);
    await page.waitForSelector('main table');
    await page.click('main table a::-p-text(jumpr)');
    await page.waitForSelector('#term-title');
    await page.click('button::-p-text(Handle)');
    await page.waitForSelector('dialog.modal[open] #handle-id');
    await entityId('syn-jumper', /No synonym with this id yet/);
    await page.select('#handle-type', 'landingpage');
    await page.waitForFunction(
      () => document.getElementById('handle-entity')?.textContent === 'No landingpage with this id yet: Save creates it.',
    );
    await page.select('#handle-language', 'de');
    await page.click('dialog.modal button[type=submit]');
    await page.waitForFunction(() => !document.querySelector('dialog.modal'));
    await page.waitForSelector('main li button.link');
    expect(await page.$$eval('main li button.link', (bs) => bs.map((b) => b.textContent))).toEqual(['landingpage: syn-jumper']);
    expect(await page.$('main button::-p-text(Handle)')).toBeNull();
    expect((await entity('landingpage/syn-jumper')).body).toMatchObject({ searchPhrases: ['jumpr'], language: 'de', data: {} });
    expect(receiver.calls.map((c) => c.body)).toEqual([
      { customer: 'demo', instance: 'live', type: 'landingpage', ids: ['syn-jumper'], action: 'create' },
    ]);
  });

  it('shows no Handle button to a credential without entities.write, and handlers as text without entities.read', async () => {
    await open(ZERO_LIST, jwtHeader({ permissions: ['search.read'] }).authorization);
    await page.waitForSelector('main table');
    expect(await row('shooes')).toEqual(['shooes', '3', '0', 'Also without filters', 'unhandled']);
    expect(await page.$$eval('main table th', (ths) => ths.map((th) => th.textContent))).not.toContain('Action');
    expect(await page.$('main button::-p-text(Handle)')).toBeNull();
    expect(await row('sneker')).toEqual(['sneker', '6', '0', 'Also without filters', 'synonym: syn-sneker']);
    expect(await page.$('main button.link')).toBeNull();
    await page.click('main table a::-p-text(shooes)');
    await page.waitForSelector('#term-title');
    expect(await page.$('main button::-p-text(Handle)')).toBeNull();
  });
});
