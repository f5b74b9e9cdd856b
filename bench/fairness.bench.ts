/**
 * npm run bench:fairness — one customer's flood of heavy analytics beside another customer's cheap request, in
 * multi-customer mode (BASE_DOMAIN), answer cache off. Customer A (5M events over 30 days) keeps 100 requests in
 * flight, half `GET /search-terms?since=30d`, half the same as CSV (bench/fairness-load.ts, a process of its own);
 * customer B (500k events) sends `GET /search-terms?since=1d` one after the other, before the flood (unloaded) and
 * during it (loaded). Twice: A sends a refused request again after its Retry-After (polite), and at once
 * (impatient, autocannon). The data set and the customers' credentials (made with the CLI) are kept in
 * tmp/bench-fairness and reused.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { recordFigures, type Figure } from './figures';
import { get, type Answer } from './host-request';
import { quantile, tableRow } from './proc';
import { ROOT, startApp, stopApp } from './query-app';

const DATA_DIR = path.join(ROOT, 'tmp', 'bench-fairness');
const BASE_DOMAIN = 'bench.test';
const A = 'shopa';
const B = 'shopb';
const EVENTS = {
  [A]: Number(process.env.BENCH_FAIRNESS_EVENTS_A ?? 5_000_000),
  [B]: Number(process.env.BENCH_FAIRNESS_EVENTS_B ?? 500_000),
};
const ENV = { DATA_DIR, CLICKHOUSE_DATABASE: 'fairness', BASE_DOMAIN, SERVICE_BASIC_AUTH: '', LOG_LEVEL: 'warn' };
/** B's requests per phase, and the longest a loaded phase may take (before the fix each request took seconds). */
const PROBES = Number(process.env.BENCH_FAIRNESS_PROBES ?? 40);
const PHASE_MAX_MS = 90_000;
const B_PATH = '/search-terms?since=1d';
const host = (customer: string) => `${customer}.${BASE_DOMAIN}`;

/** Runs a script of dist/ with the benchmark's environment; resolves with its stdout once it exited with 0. */
async function runScript(script: string, args: string[] = [], env: Record<string, string> = {}): Promise<string> {
  const child = spawn(process.execPath, [path.join(ROOT, 'dist', script), ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...ENV, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  const code = await new Promise((r) => child.once('exit', r));
  if (code !== 0) {
    throw new Error(`${script} ${args.join(' ')} failed (exit ${String(code)}): ${out}`);
  }
  return out;
}

/** Basic credentials of each customer, made once with `npm run cli -- customer:create` and kept beside the data. */
async function credentials(): Promise<Record<string, string>> {
  const file = path.join(DATA_DIR, 'credentials.json');
  if (existsSync(file)) {
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
  }
  const made: Record<string, string> = {};
  for (const customer of [A, B]) {
    const out = await runScript('apps/query/src/cli.js', ['customer:create', customer]);
    const login = /Basic login:\s+(\S+)/.exec(out)?.[1];
    const password = /Basic password:\s+(\S+)/.exec(out)?.[1];
    if (!login || !password) {
      throw new Error(`customer:create ${customer} printed no credentials: ${out}`);
    }
    made[customer] = `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;
  }
  writeFileSync(file, JSON.stringify(made));
  return made;
}

/** B's requests one after the other: `count` of them, or fewer when `maxMs` is over. */
async function probe(base: string, authorization: string, count: number, maxMs = Infinity): Promise<Answer[]> {
  const answers: Answer[] = [];
  const started = Date.now();
  while (answers.length < count && Date.now() - started < maxMs) {
    answers.push(await get(base, B_PATH, host(B), authorization));
  }
  return answers;
}

/** Starts A's flood; resolves once its clients are sending. */
async function flood(base: string, authorization: string, mode: 'polite' | 'impatient'): Promise<ChildProcess> {
  const child = spawn(process.execPath, [path.join(__dirname, 'fairness-load.js')], {
    env: {
      PATH: process.env.PATH ?? '',
      FAIRNESS_BASE: base,
      FAIRNESS_HOST: host(A),
      FAIRNESS_AUTHORIZATION: authorization,
      FAIRNESS_MODE: mode,
    },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (c: Buffer) => c.toString().includes('STARTED') && resolve());
    child.once('exit', (code) => reject(new Error(`the flood exited with ${String(code)}`)));
  });
  return child;
}

/** Stops the flood; its answers by status, and the share of a core its client used. */
async function stopFlood(child: ChildProcess): Promise<{ statuses: Record<string, number>; cpuPercent: number }> {
  let out = '';
  child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise((r) => child.once('exit', r));
  child.stdin?.end();
  await exited;
  const result = /RESULT (.*)/.exec(out);
  if (!result) {
    throw new Error(`the flood printed no result: ${out}`);
  }
  return JSON.parse(result[1]) as { statuses: Record<string, number>; cpuPercent: number };
}

const p50 = (answers: Answer[]) =>
  quantile(
    answers.map((a) => a.ms).sort((x, y) => x - y),
    0.5,
  );
const p95 = (answers: Answer[]) =>
  quantile(
    answers.map((a) => a.ms).sort((x, y) => x - y),
    0.95,
  );
const round = (n: number) => Math.round(n * 10) / 10;
const count = (n: number | undefined) => (n ?? 0).toLocaleString('en');

async function main(): Promise<void> {
  process.stderr.write('loading (or reusing) the data set\n');
  const stored = JSON.parse(
    /RESULT (.*)/.exec(await runScript('bench/fairness-worker.js', [], { FAIRNESS_EVENTS: JSON.stringify(EVENTS) }))?.[1] ?? '{}',
  ) as Record<string, number>;
  const auth = await credentials();
  const { app, base } = await startApp('0', ENV);
  const rows: string[] = [];
  const figures: Figure[] = [];
  try {
    // Warm-up: both customers' queries once through the engine.
    await probe(base, auth[B], 5);
    for (const p of ['/search-terms?since=30d', '/search-terms?since=30d&format=csv']) {
      await get(base, p, host(A), auth[A]);
    }
    const unloaded = await probe(base, auth[B], PROBES);
    const expectedTotal = unloaded[0].totalCount;
    process.stderr.write(`B unloaded: p50 ${p50(unloaded).toFixed(1)} ms\n`);
    for (const mode of ['polite', 'impatient'] as const) {
      const child = await flood(base, auth[A], mode);
      await new Promise((r) => setTimeout(r, 2_000));
      const loaded = await probe(base, auth[B], PROBES, PHASE_MAX_MS);
      const { statuses, cpuPercent } = await stopFlood(child);
      const sent = Object.values(statuses).reduce((sum, n) => sum + n, 0);
      const wrong = loaded.filter((a) => a.status !== 200 || a.totalCount !== expectedTotal).length;
      const ratio = p50(loaded) / p50(unloaded);
      const target = mode === 'polite' ? '< 3x' : 'reported';
      const pass = mode === 'polite' ? ratio < 3 && wrong === 0 : null;
      const flooded = mode === 'polite' ? "A's 429 sent again after Retry-After" : "A's 429 sent again at once";
      rows.push(
        tableRow(
          flooded,
          p50(unloaded).toFixed(1),
          p50(loaded).toFixed(1),
          p95(loaded).toFixed(1),
          `${ratio.toFixed(2)}x`,
          `${loaded.length - wrong} of ${loaded.length}`,
          count(sent),
          count(statuses['200']),
          count(statuses['429']),
          count(sent - (statuses['200'] ?? 0) - (statuses['429'] ?? 0)),
          `${cpuPercent} %`,
          target,
          pass === null ? '-' : pass ? 'pass' : '**miss**',
        ),
      );
      process.stderr.write(`${rows[rows.length - 1]}\n`);
      figures.push(
        {
          name: `B's since=1d p50 loaded / unloaded, ${flooded}`,
          value: Math.round(ratio * 100) / 100,
          unit: 'x',
          target,
          pass,
          note:
            `unloaded p50 ${round(p50(unloaded))} ms, loaded p50 ${round(p50(loaded))} ms, ` +
            `B ${loaded.length - wrong} of ${loaded.length} right`,
        },
        {
          name: `A's requests refused with 429, ${flooded}`,
          value: statuses['429'] ?? 0,
          unit: 'requests',
          target: 'reported',
          pass: null,
          note: `of ${count(sent)} sent, ${count(statuses['200'])} answered 200; A's client used ${cpuPercent} % of a core`,
        },
      );
      await new Promise((r) => setTimeout(r, 2_000));
    }
    recordFigures('fairness', figures);
    const date = new Date().toISOString().slice(0, 10);
    process.stdout.write(
      [
        '',
        `## Fairness benchmark (A ${count(stored[A])} events, B ${count(stored[B])} events over 30 days, answer cache off, ${date})`,
        '',
        `B: ${B_PATH}, one request after the other (${PROBES} unloaded, then up to ${PROBES} during A's flood). ` +
          'A: 100 requests in flight, half since=30d lists, half since=30d CSV exports.',
        '',
        tableRow(
          'flood',
          'B unloaded p50 ms',
          'B loaded p50 ms',
          'B loaded p95 ms',
          'ratio of p50s',
          'B right',
          'A sent',
          'A 200',
          'A 429',
          'A other',
          "A's client CPU (of one core)",
          'target',
          'result',
        ),
        '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
        ...rows,
        '',
      ].join('\n'),
    );
  } finally {
    await stopApp(app);
  }
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exit(1);
});
