/**
 * npm run bench:storage-check [-- --size 10M --dir tmp/scale-10m --requests 100 --interval-ms 5000]: what the storage
 * check (docs/architecture.md, "A kill at any moment") costs on a scale data set (built by `npm run bench:scale-data`,
 * docs/benchmarks/methods.md). The built service on the set, twice, the answer cache off:
 * 1. with the check (STORAGE_CHECK_MS = --interval-ms, 12x the default's rate, to show its cost): the check at start,
 *    over every row of the set (all received when it was built: a bulk import's worst case), then the answers'
 *    p50 / p95 while 50 events a second arrive and the check runs, and the check's run time sampled from /metrics;
 * 2. without it (STORAGE_CHECK_MS=0), the same answers under the same traffic.
 * The ratio of the p95s is the figure (target <= 1.1x); the figures go to docs/benchmarks/figures.json
 * (`storage-check`).
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import { recordFigures, type Figure } from './figures';
import { peakRssMb, quantile } from './proc';
import { AUTHORIZATION, ROOT, startApp, stopApp } from './query-app';

const ANSWERS = ['/search-terms?since=30d', '/search-stats?since=30d', '/search-terms?since=1d&hits=false'];
const EVENTS_PER_SECOND = 50;

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : fallback;
}

async function metric(base: string, name: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  return Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
}

/** Sends EVENTS_PER_SECOND events a second (5 requests of 10, with ids) until `stop` says so. */
async function traffic(base: string, stop: () => boolean): Promise<void> {
  while (!stop()) {
    const began = Date.now();
    for (let r = 0; r < 5; r++) {
      const events = Array.from({ length: EVENTS_PER_SECOND / 5 }, (_, i) => ({
        id: randomUUID(),
        phrase: `live term ${i}`,
        language: 'de',
        hits: i % 4,
      }));
      const res = await fetch(`${base}/events`, {
        method: 'POST',
        headers: { authorization: AUTHORIZATION, 'content-type': 'application/json' },
        body: JSON.stringify({ events }),
      });
      await res.arrayBuffer();
    }
    await new Promise((r) => setTimeout(r, Math.max(0, 1000 - (Date.now() - began))));
  }
}

interface Phase {
  p50: number;
  p95: number;
  /** The check's run times (s) sampled every second while the answers ran. */
  checks: number[];
  startCheckS?: number;
  startS: number;
  peakRssMb: number;
}

async function phase(dir: string, intervalMs: number, requests: number): Promise<Phase> {
  const launched = Date.now();
  let startS = NaN;
  let startCheckS: number | undefined;
  // The app serves once the check at start ended; its next run is STORAGE_CHECK_MS later.
  const { app, base } = await startApp('0', { DATA_DIR: dir, STORAGE_CHECK_MS: String(intervalMs) }, async (serving) => {
    startS = (Date.now() - launched) / 1000;
    startCheckS = intervalMs > 0 ? await metric(serving, 'storage_check_last_run_seconds') : undefined;
  });
  let stopped = false;
  const sending = traffic(base, () => stopped);
  const checks: number[] = [];
  const sampler = setInterval(() => {
    void metric(base, 'storage_check_last_run_seconds').then((s) => Number.isFinite(s) && checks.push(s));
  }, 1000);
  const times: number[] = [];
  for (let i = 0; i < requests; i++) {
    for (const answer of ANSWERS) {
      const began = performance.now();
      const res = await fetch(`${base}${answer}`, { headers: { authorization: AUTHORIZATION } });
      await res.arrayBuffer();
      if (res.status !== 200) {
        throw new Error(`${answer}: status ${res.status}`);
      }
      times.push(performance.now() - began);
    }
  }
  clearInterval(sampler);
  stopped = true;
  await sending;
  const peak = peakRssMb(app.pid!);
  await stopApp(app);
  times.sort((a, b) => a - b);
  return { p50: quantile(times, 0.5), p95: quantile(times, 0.95), checks, startCheckS, startS, peakRssMb: peak };
}

async function main(): Promise<void> {
  const size = option('size', '10M');
  const dir = path.resolve(ROOT, option('dir', `tmp/scale-${size.toLowerCase()}`));
  const requests = Number(option('requests', '100'));
  const intervalMs = Number(option('interval-ms', '5000'));
  if (!existsSync(dir)) {
    throw new Error(`${dir} is missing: build it with npm run bench:scale-data -- --size ${size} --dir ${dir}`);
  }
  // A first start without the check computes the engagement figures of the set (minutes, GBs at 10M): not the check's.
  await stopApp((await startApp('0', { DATA_DIR: dir, STORAGE_CHECK_MS: '0' })).app);
  const checked = await phase(dir, intervalMs, requests);
  const unchecked = await phase(dir, 0, requests);
  const sorted = [...checked.checks].sort((a, b) => a - b);
  const ratio = checked.p95 / unchecked.p95;
  const ms = (s: number) => Math.round(s * 1000);
  const figures: Figure[] = [
    { name: `storage check at start, ${size} (s)`, value: checked.startCheckS ?? NaN, unit: 's', target: 'reported', pass: null },
    {
      name: `storage check run under 50 events/s, ${size}: median (ms)`,
      value: ms(quantile(sorted, 0.5)),
      unit: 'ms',
      target: 'reported',
      pass: null,
    },
    {
      name: `storage check run under 50 events/s, ${size}: max (ms)`,
      value: ms(sorted.at(-1) ?? NaN),
      unit: 'ms',
      target: 'reported',
      pass: null,
    },
    {
      name: `answers p95 with the check / without, ${size}`,
      value: Number(ratio.toFixed(2)),
      unit: 'x',
      target: '<= 1.1x',
      pass: ratio <= 1.1,
    },
    { name: `peak RSS with the check, ${size} (MB)`, value: checked.peakRssMb, unit: 'MB', target: 'reported', pass: null },
    { name: `peak RSS without the check, ${size} (MB)`, value: unchecked.peakRssMb, unit: 'MB', target: 'reported', pass: null },
  ];
  const phases = { checked: { ...checked, checks: undefined }, unchecked: { ...unchecked, checks: undefined } };
  process.stdout.write(`${JSON.stringify({ size, intervalMs, requests, ...phases }, null, 1)}\n`);
  for (const f of figures) {
    process.stdout.write(`${f.name}: ${f.value} ${f.unit} (${f.target})\n`);
  }
  recordFigures('storage-check', figures);
  process.exit(0);
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exit(1);
});
