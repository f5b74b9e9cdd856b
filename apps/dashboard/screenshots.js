// npm run screenshots: the dashboard's overview (with an annotation and an alert), zero-result table, the Handle
// form and searches without clicks in headless Chromium on seeded data, written to docs/ for the README and docs/dashboard.md. Starts the
// built service in this process on a fresh embedded database; nothing else is written.
require('reflect-metadata');
const { randomUUID } = require('node:crypto');
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const path = require('node:path');
const puppeteer = require('puppeteer-core');
// The service and the seeded generator of the benchmarks, as `npm run build` compiles them (npm run screenshots
// builds first).
const { mulberry32 } = require('../../dist/bench/generator.js');
const { ClickHouseService } = require('../../dist/libs/clickhouse/src');
const { loadConfig } = require('../../dist/libs/config/src');
const { chDateTime, normalisePhrase } = require('../../dist/libs/contracts/src');
const { createHttpApp } = require('../../dist/libs/http/src');
const { DataVersions } = require('../../dist/libs/intake/src');
const { StandaloneModule } = require('../../dist/apps/standalone/src/standalone.module');
const { AlertsService } = require('../../dist/apps/query/src/alerts/alerts.service');

const ROOT = path.resolve(__dirname, '../..');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const PORT = 3950 + Math.floor(Math.random() * 40);
const BASE = `http://127.0.0.1:${PORT}`;
const LOGIN = 'admin';
const PASSWORD = 'screenshot-password-1';
const AUTH = `Basic ${Buffer.from(`${LOGIN}:${PASSWORD}`).toString('base64')}`;
const HOUR = 3_600_000;

// A shop's searches: [phrase, weight, share that finds nothing].
const TERMS = [
  ['sneakers', 120, 0],
  ['rain jacket', 80, 0.02],
  ['wool socks', 60, 0],
  ['summer dress', 55, 0.05],
  ['hiking boots', 40, 0],
  ['gift card', 35, 0],
  ['linen shirt', 30, 0.1],
  ['yoga mat', 25, 0],
  ['trail runners', 22, 0.6],
  ['beanie', 20, 0],
  ['waterproof gloves', 18, 0.3],
  ['merino hoodie', 15, 0.9],
  ['barefoot shoes', 14, 1],
  ['kids raincoat', 12, 0.5],
  ['vegan leather bag', 10, 1],
  ['ski goggles', 9, 1],
  ['thermal leggings', 8, 0.7],
  ['sale', 8, 0.2],
  ['festival outfit', 6, 1],
  ['size 47 sneakers', 5, 1],
  ['sneakres', 5, 1],
];
const SPELLINGS = { sneakers: ['sneakers', 'Sneakers', 'sneaker s'], 'rain jacket': ['rain jacket', 'Rain Jacket', 'rainjacket'] };
// The share of a term's tracked searches that get a click (0.35 unless named): a few whose results shoppers skip.
const CLICK_THROUGH = { sneakers: 0.55, 'gift card': 0.7, 'rain jacket': 0.3, 'linen shirt': 0.08, 'yoga mat': 0.12, sale: 0.05 };

/**
 * Searches the shop's frontend sent with an id (60% of those with results) and their clicks and conversions, written
 * straight into storage as the intake stores them: clicks at positions that fall off from the first, a conversion
 * after one click in six.
 */
async function seedEngagement(app, config, tracked, rnd) {
  const [customer, instance] = [config.customer, config.instances[0]];
  const row = (fields) => ({ customer, instance, source: 'http', partition: -1, offset: -1, received_at: chDateTime(), ...fields });
  const searches = [];
  const interactions = [];
  for (const e of tracked) {
    const id = randomUUID();
    searches.push(row({ event_id: id, ts: chDateTime(e.ts), phrase: normalisePhrase(e.phrase), raw_phrase: e.phrase, ...e.kept }));
    const term = normalisePhrase(e.phrase);
    if (rnd() >= (CLICK_THROUGH[term] ?? 0.35)) {
      continue;
    }
    const position = Math.min(40, 1 + Math.floor(-Math.log(1 - rnd()) * 3));
    const at = chDateTime(Math.min(Date.now(), e.ts + 20_000));
    const objectId = `sku-${term.replace(/\W+/g, '-')}-${position}`;
    interactions.push(row({ interaction_id: randomUUID(), type: 'click', search_id: id, object_id: objectId, position, ts: at }));
    if (rnd() < 1 / 6) {
      const value = (20 + Math.floor(rnd() * 80)).toFixed(2);
      interactions.push(
        row({
          interaction_id: randomUUID(),
          type: 'conversion',
          search_id: id,
          object_id: objectId,
          subtype: 'purchase',
          value,
          currency: 'EUR',
          ts: at,
        }),
      );
    }
  }
  const ch = app.get(ClickHouseService);
  await ch.insert('search_events', searches);
  await ch.insert('interactions', interactions);
  app.get(DataVersions).bump(customer, instance);
}

async function seed(app, config) {
  const rnd = mulberry32(7);
  const total = TERMS.reduce((s, [, w]) => s + w, 0);
  const events = [];
  for (let i = 0; i < 6000; i++) {
    let x = rnd() * total;
    const [phrase, , zero] = TERMS.find(([, w]) => (x -= w) < 0) ?? TERMS[0];
    const spellings = SPELLINGS[phrase] ?? [phrase];
    const age = Math.floor(Math.pow(rnd(), 1.3) * 14 * 24 * HOUR);
    events.push({
      phrase: spellings[Math.floor(rnd() * spellings.length)],
      language: rnd() < 0.8 ? 'de' : 'en',
      hits: rnd() < zero ? 0 : 1 + Math.floor(rnd() * 80),
      ts: Date.now() - age,
    });
  }
  const tracked = events.filter((e) => e.hits > 0 && rnd() < 0.6);
  await seedEngagement(
    app,
    config,
    tracked.map((e) => ({ phrase: e.phrase, ts: e.ts, kept: { language: e.language, hits: e.hits, bot: false, sign: 1, id_sent: true } })),
    rnd,
  );
  const sent = new Set(tracked);
  events.splice(0, events.length, ...events.filter((e) => !sent.has(e)));
  for (let i = 0; i < events.length; i += 1000) {
    const res = await fetch(`${BASE}/events`, {
      method: 'POST',
      headers: { authorization: AUTH, 'content-type': 'application/json' },
      body: JSON.stringify({ events: events.slice(i, i + 1000) }),
    });
    if (res.status !== 202) {
      throw new Error(`seeding failed: ${res.status}`);
    }
  }
  for (const [type, id, phrases] of [
    ['synonym', 'barefoot', ['barefoot shoes']],
    ['landingpage', 'ski-week', ['ski goggles']],
  ]) {
    const saved = await fetch(`${BASE}/entities/${type}/${id}`, {
      method: 'PUT',
      headers: { authorization: AUTH, 'content-type': 'application/json' },
      body: JSON.stringify({ searchPhrases: phrases }),
    });
    if (saved.status !== 201) {
      throw new Error(`saving ${type}/${id} failed: ${saved.status}`);
    }
  }
  const post = (route, body, method = 'POST') =>
    fetch(`${BASE}${route}`, { method, headers: { authorization: AUTH, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const annotated = await post('/annotations', {
    ts: new Date(Date.now() - 4 * 24 * HOUR).toISOString(),
    text: 'Black Friday banner live',
  });
  const configured = await post('/configuration', { webhookConfig: { url: '' }, alertConfig: { minSearches: 5 } }, 'PUT');
  if (annotated.status !== 201 || configured.status !== 200) {
    throw new Error(`annotation ${annotated.status}, alert configuration ${configured.status}`);
  }
  // The alert evaluation of the last complete hour, as the minute timer would run it.
  await app.get(AlertsService).tick();
}

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'screenshots-'));
  const config = loadConfig({ DATA_DIR: dataDir, SERVICE_BASIC_AUTH: `${LOGIN}:${PASSWORD}`, LOG_LEVEL: 'warn' });
  const app = await createHttpApp(StandaloneModule.forRoot(config), config, { logger: false });
  try {
    await app.listen(PORT, '127.0.0.1');
    await seed(app, config);
    const browser = await puppeteer.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
    const page = await browser.newPage();
    await page.emulateTimezone('Europe/Berlin');
    await page.setViewport({ width: 1280, height: 800 });
    await page.goto(`${BASE}/dashboard`, { waitUntil: 'networkidle0' });
    await page.type('#login', LOGIN);
    await page.type('#password', PASSWORD);
    await page.click('form button[type=submit]');
    await page.waitForSelector('.kpis');
    await new Promise((r) => setTimeout(r, 300));
    await page.screenshot({ path: path.join(ROOT, 'docs/dashboard-overview.png'), fullPage: true });
    await page.click('nav a:nth-of-type(3)');
    await page.waitForSelector('#unhandled');
    await page.screenshot({ path: path.join(ROOT, 'docs/dashboard-zero-results.png'), fullPage: true });
    // The Handle form of the misspelt term, its suggestion picked.
    const row = await page.waitForSelector('xpath/.//tr[td[contains(., "sneakres")]]');
    await (await row.waitForSelector('xpath/.//button[normalize-space()="Handle"]')).click();
    await page.waitForSelector('dialog.modal input[type=radio][value="sneakers"]');
    await page.click('dialog.modal input[type=radio][value="sneakers"]');
    await new Promise((r) => setTimeout(r, 300));
    await page.screenshot({ path: path.join(ROOT, 'docs/dashboard-handle.png') });
    await page.keyboard.press('Escape');
    await page.click('nav a:nth-of-type(4)');
    await page.waitForFunction("new URL(location.href).searchParams.get('view') === 'noclicks'");
    await page.waitForSelector('main table');
    await page.screenshot({ path: path.join(ROOT, 'docs/dashboard-no-clicks.png'), fullPage: true });
    await browser.close();
    console.log('wrote docs/dashboard-overview.png, -zero-results.png, -handle.png and -no-clicks.png');
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
