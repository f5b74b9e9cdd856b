/**
 * The second round of attacks of `npm run bench:attacks` (docs/security.md, "Input limits"): each cheap for the sender,
 * each run for ATTACK_MS against one fresh process while a customer's signed `POST /events` of one event and
 * `GET /health/live` are timed in a loop beside it. For each: RSS growth (VmRSS after, less before), the customer's
 * p50 against its p50 unloaded, and the slowest `/health/live`. Targets as for the first round: RSS growth <= 100 MB,
 * the customer's p50 <= 3x, `/health/live` <= 1 s.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { signRequest } from '@app/auth';
import { getFrom, memoryOf, sleep, upload } from './attack-client';
import type { Figure } from './figures';
import { quantile } from './proc';

const ATTACK_MS = 8_000;
const MB = 1024 * 1024;

/** What the round needs of a started service. */
export interface RoundTarget {
  base: string;
  pid: number;
  basic: string;
  legacySecret: string;
  stop(): Promise<void>;
}

/**
 * A signed POST /events of one event, as docs/hmac.md defines the signature (the customer's own traffic): its time
 * (ms), or Infinity when it was not a 202 (a refusal is no answer for the customer).
 */
async function customerRequest(t: RoundTarget): Promise<number> {
  const body = JSON.stringify({ events: [{ id: randomUUID(), phrase: 'round two', language: 'en', hits: 3 }] });
  const nonce = randomBytes(16).toString('hex');
  const hash = signRequest(t.legacySecret, nonce, body);
  const began = performance.now();
  const res = await fetch(`${t.base}/events`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-service-nonce': nonce, 'x-service-hash': hash },
    body,
  });
  await res.arrayBuffer();
  return res.status === 202 ? performance.now() - began : Infinity;
}

/** The customer's p50 and the slowest /health/live while `attack` runs (until it resolves). */
async function beside(t: RoundTarget, attack: () => Promise<void>): Promise<{ p50: number; healthMax: number; rssGrowth: number }> {
  const before = memoryOf(t.pid).rssMb;
  let running = true;
  const times: number[] = [];
  const health: number[] = [];
  const customer = (async () => {
    while (running) {
      times.push(await customerRequest(t));
    }
  })();
  const probes = (async () => {
    while (running) {
      const began = performance.now();
      await fetch(`${t.base}/health/live`, { signal: AbortSignal.timeout(10_000) })
        .then((r) => r.arrayBuffer())
        .catch(() => undefined);
      health.push(performance.now() - began);
      await sleep(50);
    }
  })();
  await attack();
  running = false;
  await Promise.all([customer, probes]);
  times.sort((a, b) => a - b);
  return { p50: quantile(times, 0.5), healthMax: Math.max(...health), rssGrowth: memoryOf(t.pid).rssMb - before };
}

/** Runs `one` with `concurrency` in flight until ATTACK_MS has passed. */
async function repeat(concurrency: number, one: () => Promise<unknown>): Promise<void> {
  const until = Date.now() + ATTACK_MS;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < until) {
        await one();
      }
    }),
  );
}

export async function roundTwo(start: () => Promise<RoundTarget>): Promise<Figure[]> {
  const t = await start();
  const collector = await fetch(`${t.base}/secret`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(t.basic).toString('base64')}`, 'content-type': 'application/json' },
    body: JSON.stringify({ description: 'storefront', preset: 'collector' }),
  }).then(async (r) => ((await r.json()) as { secret: string }).secret);
  const collect = `/1/events?x-algolia-application-id=demo&x-algolia-api-key=${collector}`;
  const unloaded: number[] = [];
  for (let i = 0; i < 50; i++) {
    unloaded.push(await customerRequest(t));
  }
  unloaded.sort((a, b) => a - b);
  const baseline = quantile(unloaded, 0.5);
  const authorization = `Basic ${Buffer.from(t.basic).toString('base64')}`;
  const events = (n: number, objects: number) =>
    JSON.stringify({
      events: Array.from({ length: n }, (_, i) => ({
        eventType: 'view',
        eventName: 'Viewed',
        index: 'products',
        userToken: `u-${i}`,
        objectIDs: Array.from({ length: objects }, (_, o) => `sku-${i}-${o}`),
      })),
    });
  const bulky = events(1000, 20);
  // Built once: the attacker's own work must not slow the customer's requests, which this process times too.
  const nested = `/health/live?${Array.from({ length: 2900 }, (_, i) => `a${i}[b][c]=1`)
    .join('&')
    .slice(0, 8 * 1024 - 1)}`;
  const accept = `"${','.repeat(1023)}`;
  const slowMb = Buffer.alloc(MB, 0x20);
  const attacks: Array<[string, () => Promise<void>]> = [
    // The longest Accept negotiated (1,024 bytes: a quote, then commas), 10 in flight, with a credential.
    [
      'Accept of 1,024 bytes x 10 in flight',
      () => repeat(10, () => getFrom(t.base, '/search-terms?since=1d', { authorization, accept }, '127.0.0.1')),
    ],
    // The control: as many plain requests to the same public route, to tell the query's cost from the flood's.
    ['plain /health/live x 16 in flight (control)', () => repeat(16, () => getFrom(t.base, '/health/live', {}, '127.0.0.1'))],
    // The deepest, widest query parsed on a GET (just under 8 KB of a[b][c]... keys), 16 in flight, no credential.
    ['nested query of 8 KB x 16 in flight to /health/live', () => repeat(16, () => getFrom(t.base, nested, {}, '127.0.0.1'))],
    // Slow 1 MB bodies on OPTIONS (public) and POST /1/events (a public collector key), 300 at once each.
    [
      'OPTIONS with 1 MB bodies x 300 at once',
      () =>
        Promise.all(
          Array.from({ length: 300 }, () =>
            upload(t.base, { method: 'OPTIONS', path: collect, body: slowMb, pauseMs: 200, chunkBytes: 16 * 1024, writeForMs: ATTACK_MS }),
          ),
        ).then(() => undefined),
    ],
    [
      'collector 1 MB bodies x 300 at once',
      () =>
        Promise.all(
          Array.from({ length: 300 }, () =>
            upload(t.base, { path: collect, body: slowMb, pauseMs: 200, chunkBytes: 16 * 1024, writeForMs: ATTACK_MS }),
          ),
        ).then(() => undefined),
    ],
    // 1,000 events of 20 objects per request from one address, 2 senders.
    [
      'collector 20,000-row requests x 2 senders',
      () =>
        repeat(2, () =>
          fetch(`${t.base}${collect}`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: bulky }).then((r) =>
            r.arrayBuffer(),
          ),
        ),
    ],
  ];
  const figures: Figure[] = [];
  for (const [name, attack] of attacks) {
    process.stderr.write(`round two: ${name}\n`);
    const r = await beside(t, attack);
    const ratio = Math.round((r.p50 / baseline) * 100) / 100;
    figures.push(
      { name: `${name}: RSS growth`, value: r.rssGrowth, unit: 'MB', target: '<= 100 MB', pass: r.rssGrowth <= 100 },
      {
        name: `${name}: customer p50 / unloaded`,
        value: ratio,
        unit: 'x',
        target: '<= 3x',
        pass: ratio <= 3,
        note: `unloaded p50 ${baseline.toFixed(1)} ms`,
      },
      { name: `${name}: /health/live max`, value: Math.round(r.healthMax), unit: 'ms', target: '<= 1000 ms', pass: r.healthMax <= 1000 },
    );
    await sleep(2_000);
  }
  await t.stop();
  return figures;
}
