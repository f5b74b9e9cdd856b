/**
 * npm run bench:attacks — two attacks on the built embedded service, each on a fresh process (fresh DATA_DIR under
 * tmp/, a 384 MB heap limit, Basic credentials, the legacy key, AUTH_FAILURES_PER_MINUTE=60):
 *
 * 1. Burst: 40 concurrent POST /events with 10 MB JSON bodies of many small objects and no credentials. RSS (VmRSS,
 *    sampled every 50 ms) before, the peak during, and 30 s after the last answer; the answers; whether the process
 *    survived.
 * 2. Password flood: 900 concurrent requests with wrong Basic passwords from one client address (127.0.0.5) while
 *    GET /health is probed in a loop (10 s timeout each): the probes' p50 / p95 / max and how many timed out; how
 *    many attempts were answered 401 (hashed) and 429; the total time.
 *
 * 3. Round two (bench/attacks-round-two.ts): a long Accept, nested query strings, slow bodies on OPTIONS and on
 *    POST /1/events with a collector key, and collector requests of 20,000 rows, each beside a customer's requests.
 *
 * BENCH_ENTRY points it at another checkout's built main.js (the code before a change, say); such a run prints its
 * figures but does not record them, so docs/benchmarks/figures.json keeps describing this checkout.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { bulkyEvents, getFrom, memoryOf, sleep, timedHealth, upload, type Outcome } from './attack-client';
import { roundTwo } from './attacks-round-two';
import { recordFigures, type Figure } from './figures';
import { freePort, quantile, tableRow } from './proc';

const ROOT = path.resolve(__dirname, '../..');
const ENTRY = process.env.BENCH_ENTRY ?? path.join(ROOT, 'dist/apps/standalone/src/main.js');
const BASIC = 'bench:bench-password-1';
const LEGACY_SECRET = 'bench-legacy-secret-0123456789abcdef';
const HEAP_LIMIT_MB = 384;
const AUTH_FAILURES_PER_MINUTE = 60;
const BURST = 40;
const FLOOD = 900;
const FLOOD_ADDRESS = '127.0.0.5';
const PROBE_TIMEOUT_MS = 10_000;
const SETTLE_MS = 30_000;
/** A burst the process neither answers nor dies of within this long is given up on (the answers count as missing). */
const BURST_TIMEOUT_MS = 300_000;

interface Target {
  child: ChildProcess;
  base: string;
  /** The end of the process's stderr (an out-of-memory death says so there). */
  stderr(): string;
  alive(): boolean;
  stop(): Promise<void>;
}

/** The service on a free port with a fresh DATA_DIR (removed by stop()), once /health answers. */
async function start(): Promise<Target> {
  mkdirSync(path.join(ROOT, 'tmp'), { recursive: true });
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(ROOT, 'tmp', 'bench-attacks-'));
  const child = spawn(process.execPath, [ENTRY], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATA_DIR: dataDir,
      PORT: String(port),
      SERVICE_BASIC_AUTH: BASIC,
      SERVICE_LEGACY_SECRET: LEGACY_SECRET,
      LOG_LEVEL: 'warn',
      AUTH_FAILURES_PER_MINUTE: String(AUTH_FAILURES_PER_MINUTE),
      NODE_OPTIONS: `--max-old-space-size=${HEAP_LIMIT_MB}`,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  child.stderr?.on('data', (c: Buffer) => (err = (err + c.toString()).slice(-20_000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const alive = () => child.exitCode === null && child.signalCode === null;
  const base = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 60_000; ; await sleep(100)) {
    if (!alive()) {
      throw new Error(`${ENTRY} exited with ${child.exitCode ?? child.signalCode}: ${err}`);
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${ENTRY} did not become healthy within 60 s: ${err}`);
    }
    if ((await timedHealth(base, 2_000)).status === 200) {
      break;
    }
  }
  return {
    child,
    base,
    stderr: () => err,
    alive,
    stop: async () => {
      if (alive()) {
        child.kill('SIGTERM');
      }
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** VmRSS in MB; NaN once the process is gone. */
function rssOf(pid: number): number {
  try {
    return memoryOf(pid).rssMb;
  } catch {
    return NaN;
  }
}

/** How a process ended, from its exit and its stderr. */
function death(t: Target): string {
  const how = t.child.signalCode ? `killed by ${t.child.signalCode}` : `exit code ${t.child.exitCode}`;
  return /heap out of memory/i.test(t.stderr()) ? `out of memory (${how})` : how;
}

/** `40 x 401` or `12 x 401, 28 x no answer (socket hang up)`. */
function tally(keys: string[]): string {
  const counts = new Map<string, number>();
  for (const k of keys) {
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  return [...counts].map(([k, n]) => `${n} x ${k}`).join(', ');
}

interface Burst {
  beforeMb: number;
  peakMb: number;
  /** RSS 30 s after the last answer; NaN when the process died. */
  afterMb: number;
  answers: string;
  answered401: number;
  seconds: number;
  survived: boolean;
  /** How the process ended, when it did. */
  died?: string;
}

async function burst(): Promise<Burst> {
  const t = await start();
  const pid = t.child.pid as number;
  await sleep(2_000); // start-up work settles
  const beforeMb = rssOf(pid);
  let peakMb = beforeMb;
  const sampler = setInterval(() => {
    const rss = rssOf(pid);
    if (rss > peakMb) {
      peakMb = rss;
    }
  }, 50);
  const body = bulkyEvents();
  const started = performance.now();
  const gaveUp = sleep(BURST_TIMEOUT_MS).then((): Outcome => ({
    headers: {},
    body: '',
    error: `no answer within ${BURST_TIMEOUT_MS / 1000} s`,
  }));
  const outcomes = await Promise.all(
    Array.from({ length: BURST }, () => Promise.race([upload(t.base, { path: '/events', body }), gaveUp])),
  );
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  await sleep(SETTLE_MS);
  const survived = t.alive() && (await timedHealth(t.base, PROBE_TIMEOUT_MS)).status === 200;
  const afterMb = t.alive() ? rssOf(pid) : NaN;
  const died = t.alive() ? undefined : death(t);
  await t.stop();
  return {
    beforeMb,
    peakMb,
    afterMb,
    answers: tally(outcomes.map((o) => (o.status !== undefined ? String(o.status) : `no answer (${o.error ?? 'closed'})`))),
    answered401: outcomes.filter((o) => o.status === 401).length,
    seconds,
    survived,
    died,
  };
}

interface Flood {
  probes: number;
  p50: number;
  p95: number;
  max: number;
  timedOut: number;
  /** Probes answered, but not 200. */
  failed: number;
  answered401: number;
  answered429: number;
  answers: string;
  seconds: number;
  survived: boolean;
}

async function flood(): Promise<Flood> {
  const t = await start();
  const authorization = () => `Basic ${Buffer.from(`bench:wrong-${Math.random()}`).toString('base64')}`;
  const health: { ms: number; status: number }[] = [];
  let flooding = true;
  const probe = (async () => {
    while (flooding) {
      health.push(await timedHealth(t.base, PROBE_TIMEOUT_MS));
    }
  })();
  const started = performance.now();
  const outcomes = await Promise.all(
    Array.from({ length: FLOOD }, () => getFrom(t.base, '/search-terms?since=1d', { authorization: authorization() }, FLOOD_ADDRESS)),
  );
  const seconds = (performance.now() - started) / 1000;
  flooding = false;
  await probe;
  const survived = t.alive();
  await t.stop();
  const ms = health.map((h) => h.ms).sort((a, b) => a - b);
  const count = (status: number) => outcomes.filter((o) => o.status === status).length;
  return {
    probes: health.length,
    p50: quantile(ms, 0.5),
    p95: quantile(ms, 0.95),
    max: ms[ms.length - 1],
    timedOut: health.filter((h) => h.status === 0).length,
    failed: health.filter((h) => h.status !== 0 && h.status !== 200).length,
    answered401: count(401),
    answered429: count(429),
    answers: tally(outcomes.map((o) => (o.status ? String(o.status) : 'no answer'))),
    seconds,
    survived,
  };
}

const round1 = (n: number) => Math.round(n * 10) / 10;

async function main(): Promise<void> {
  const date = new Date().toISOString().slice(0, 10);
  process.stderr.write(`attacking ${ENTRY}\nburst: ${BURST} x 10 MB POST /events without credentials\n`);
  const b = await burst();
  process.stderr.write(`password flood: ${FLOOD} wrong Basic passwords from ${FLOOD_ADDRESS}\n`);
  const f = await flood();
  const second = await roundTwo(async () => {
    const t = await start();
    return { base: t.base, pid: t.child.pid as number, basic: BASIC, legacySecret: LEGACY_SECRET, stop: () => t.stop() };
  });

  const grew = b.afterMb - b.beforeMb;
  const figures: Figure[] = [
    {
      name: `burst ${BURST} x 10 MB unauthenticated: RSS 30 s after, above before`,
      value: b.survived ? grew : 0,
      unit: 'MB',
      target: '<= 100 MB',
      pass: b.survived && grew <= 100,
      note: b.survived ? `${b.beforeMb} MB before, ${b.afterMb} MB after` : `the process died: ${b.died ?? 'no /health'}`,
    },
    { name: `burst ${BURST} x 10 MB unauthenticated: peak RSS`, value: b.peakMb, unit: 'MB', target: 'reported', pass: null },
    {
      name: `burst ${BURST} x 10 MB unauthenticated: answered 401`,
      value: b.answered401,
      unit: `of ${BURST}`,
      target: 'reported',
      pass: null,
      note: `${b.answers}; ${b.survived ? 'survived' : 'died'}`,
    },
    {
      name: `password flood ${FLOOD} from one address: /health p95`,
      value: round1(f.p95),
      unit: 'ms',
      target: 'reported',
      pass: null,
      note: `p50 ${round1(f.p50)} ms, max ${round1(f.max)} ms, ${f.timedOut} of ${f.probes} probes timed out`,
    },
    {
      name: `password flood ${FLOOD} from one address: hashed (401)`,
      value: f.answered401,
      unit: `of ${FLOOD}`,
      target: 'reported',
      pass: null,
      note: `${f.answered429} answered 429`,
    },
    { name: `password flood ${FLOOD} from one address: total time`, value: round1(f.seconds), unit: 's', target: 'reported', pass: null },
    ...second,
  ];
  if (!process.env.BENCH_ENTRY) {
    recordFigures('attacks', figures);
  }

  const mb = (n: number) => (Number.isNaN(n) ? '-' : `${n} MB`);
  const ms = (n: number) => `${round1(n)} ms`;
  const report = [
    '',
    `## Attacks (${date}, ${ENTRY})`,
    '',
    tableRow('attack', 'figure', 'value'),
    '|---|---|---|',
    tableRow(
      `burst: ${BURST} x 10 MB POST /events, no credentials`,
      'RSS before / peak / 30 s after',
      `${mb(b.beforeMb)} / ${mb(b.peakMb)} / ${mb(b.afterMb)}`,
    ),
    tableRow('', 'answers', `${b.answers} (all in ${b.seconds.toFixed(1)} s)`),
    tableRow('', 'survived', b.survived ? 'yes' : `no: ${b.died ?? '/health did not answer 200'}`),
    tableRow(
      `password flood: ${FLOOD} wrong Basic passwords from one address`,
      '/health p50 / p95 / max',
      `${ms(f.p50)} / ${ms(f.p95)} / ${ms(f.max)}`,
    ),
    tableRow(
      '',
      `/health probes timed out (${PROBE_TIMEOUT_MS / 1000} s)`,
      `${f.timedOut} of ${f.probes}${f.failed ? `, ${f.failed} not 200` : ''}`,
    ),
    tableRow('', 'answers', `${f.answers} (${f.answered401} hashed)`),
    tableRow('', 'total time', `${f.seconds.toFixed(1)} s${f.survived ? '' : ', the process died'}`),
    ...second.map((g) => tableRow(g.name.split(': ')[0], g.name.split(': ')[1], `${g.value} ${g.unit} (${g.target})`)),
    '',
  ];
  process.stdout.write(report.join('\n'));
  process.exit(0);
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exit(1);
});
