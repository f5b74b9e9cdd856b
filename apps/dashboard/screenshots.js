// npm run screenshots: the dashboard's overview and zero-result table in headless Chromium on seeded data, written
// to docs/ for the README. Starts the built service on a fresh embedded database; nothing else is written.
const { spawn } = require('node:child_process');
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const path = require('node:path');
const puppeteer = require('puppeteer-core');
// The seeded generator of the benchmarks, as `npm run build` compiles it (npm run screenshots builds first).
const { mulberry32 } = require('../../dist/bench/generator.js');

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
];
const SPELLINGS = { sneakers: ['sneakers', 'Sneakers', 'sneaker s'], 'rain jacket': ['rain jacket', 'Rain Jacket', 'rainjacket'] };

async function seed() {
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
}

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'screenshots-'));
  const service = spawn(process.execPath, [path.join(ROOT, 'dist/apps/standalone/src/main.js')], {
    env: { PATH: process.env.PATH, DATA_DIR: dataDir, PORT: String(PORT), SERVICE_BASIC_AUTH: `${LOGIN}:${PASSWORD}`, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${BASE}/health`)).ok) {
          break;
        }
      } catch {
        if (i > 300) {
          throw new Error('the service did not start');
        }
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    await seed();
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
    await browser.close();
    console.log('wrote docs/dashboard-overview.png and docs/dashboard-zero-results.png');
  } finally {
    service.kill('SIGTERM');
    await new Promise((r) => service.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
