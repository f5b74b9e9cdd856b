/**
 * What both modes of the intake benchmark (bench/intake.bench.ts, bench/intake-mixed.ts) share: the built service in
 * a process of its own (rate limits off), an open-loop scenario of POST /events against it, waiting until it has
 * stopped inserting, counting what it stored (bench/intake-count.ts) and matching that to the answers.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, openSync } from 'node:fs';
import * as path from 'node:path';
import { eventBody, eventHeaders, type Credentials, type Scheme } from './intake-events';
import { openLoop, type OpenLoopResult, type Shot } from './open-loop';
import { freePort, quantile } from './proc';
import { InsertSampler, insertsBetween, maxPerSecond } from './storage-inserts';

export const ROOT = path.resolve(__dirname, '../..');
/** The service's stdout of the last run. */
const SERVICE_LOG = path.join(ROOT, 'tmp', 'bench-intake-service.log');
export const ENTRY = process.env.BENCH_ENTRY ?? path.join(ROOT, 'dist/apps/standalone/src/main.js');
export const BASIC = 'bench:bench-password-1';
export const JWT_SECRET = 'bench-intake-jwt-secret-0123456789abcdef';
export const P95_TARGET_MS = 250;
/**
 * After a scenario the service is quiet once its insert counts stayed the same this long (at most QUIET_MAX_MS): the
 * requests it took in before the client gave them up are still being worked on, and would load the next scenario.
 */
const QUIET_MS = 1_500;
const QUIET_MAX_MS = 60_000;

/** The value of `--name=<n>` (a positive number), else `fallback`. */
export function option(name: string, fallback: number): number {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`));
  const value = arg ? Number(arg.slice(name.length + 3)) : fallback;
  if (!Number.isFinite(value) || value <= 0) {
    throw new Error(`--${name} must be a positive number`);
  }
  return value;
}
export const flag = (name: string) => process.argv.includes(`--${name}`);

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const log = (line: string) => process.stderr.write(`${new Date().toISOString()} ${line}\n`);

export function spawnNode(script: string, env: Record<string, string>, stdout: 'pipe' | 'ignore' | number): ChildProcess {
  return spawn(process.execPath, [script], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', stdout, 'pipe'],
  });
}

/** The first stdout line of `child` that starts with `prefix`, without it. */
export function lineOf(child: ChildProcess, prefix: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    child.stdout!.on('data', (c: Buffer) => {
      buffer += c.toString();
      const line = buffer
        .split('\n')
        .slice(0, -1) // complete lines only
        .find((l) => l.startsWith(prefix));
      if (line !== undefined) {
        resolve(line.slice(prefix.length).trim());
      }
    });
    child.once('exit', (code) => reject(new Error(`${String(child.spawnargs[1])} exited with ${code} before "${prefix}"`)));
  });
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return;
  }
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  if ((await Promise.race([exited.then(() => true), sleep(30_000).then(() => false)])) === false) {
    child.kill('SIGKILL');
    await exited;
  }
}

export interface Service {
  child: ChildProcess;
  base: string;
  dataDir: string;
  stderr(): string;
}

/** The built service on `dataDir` (a fresh one under tmp/ when not given), rate limits off; resolves once healthy. */
export async function startService(extraEnv: Record<string, string>, dataDir?: string): Promise<Service> {
  const port = await freePort();
  const dir = dataDir ?? mkdtempSync(path.join(ROOT, 'tmp', 'bench-intake-'));
  const child = spawnNode(
    ENTRY,
    {
      DATA_DIR: dir,
      PORT: String(port),
      SERVICE_BASIC_AUTH: BASIC,
      SERVICE_JWT_SECRET: JWT_SECRET,
      RATE_LIMIT_PER_MINUTE: '0',
      INTAKE_PER_MINUTE: '0',
      ...extraEnv,
    },
    // Its logs (LOG_LEVEL info, as `npm start` runs it: a line per request) are kept for a look after the run.
    openSync(SERVICE_LOG, 'w'),
  );
  let err = '';
  child.stderr!.on('data', (c: Buffer) => (err = (err + c.toString()).slice(-20_000)));
  const base = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 180_000; ; await sleep(200)) {
    if (child.exitCode !== null) {
      throw new Error(`${ENTRY} exited with ${child.exitCode}: ${err}`);
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${ENTRY} did not become healthy within 180 s: ${err}`);
    }
    const status = await fetch(`${base}/health`).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) {
      return { child, base, dataDir: dir, stderr: () => err };
    }
  }
}

/** Waits until the service's insert counts stayed the same for QUIET_MS (at most QUIET_MAX_MS). */
export async function quiet(sampler: InsertSampler): Promise<void> {
  const started = performance.now();
  const deadline = started + QUIET_MAX_MS;
  let last = JSON.stringify((await sampler.latest(true))?.counts);
  let since = performance.now();
  while (performance.now() < deadline) {
    const now = JSON.stringify((await sampler.latest(true))?.counts);
    if (now !== last) {
      last = now;
      since = performance.now();
    } else if (performance.now() - since >= QUIET_MS) {
      log(`quiet after ${((performance.now() - started) / 1000).toFixed(1)} s`);
      return;
    }
  }
  log(`still inserting ${QUIET_MAX_MS / 1000} s after the scenario: the next one starts anyway`);
}

export interface Scenario {
  name: string;
  scheme: Scheme;
  rate: number;
  seconds: number;
  /** '50/s fixed' or '0.3x of the floor'. */
  label: string;
  /** The body of request `index`; by default `eventBody(name, index)`. */
  body?(index: number): Buffer;
  /** With `body`: the events of request `index`, numbered from `first` (default: event `index` alone). */
  batch?(index: number): { first: number; count: number };
  /** Senders, each with its own keep-alive connections (open-loop.ts; default 1). */
  senders?: number;
  /** Another route than POST /events (POST /1/events), with its own headers and its own answer of an accepted item. */
  route?: {
    path: string;
    headers(body: Buffer): Record<string, string>;
    accepted(shot: Shot): boolean;
  };
}

/**
 * How a scenario's requests are sent: connections at most, answers awaited after the last one due, events with ids,
 * events with the scale data sets' dimensions.
 */
export interface LoopOptions {
  connections: number;
  drainMs: number;
  ids: boolean;
  dimensions?: boolean;
}

export interface Outcome {
  scenario: Scenario;
  run: OpenLoopResult;
  /** The events of the requests offered. */
  events: number;
  /** The numbers of the events answered 202 and accepted (every event of its request). */
  accepted: number[];
  maxInserts: Record<string, number>;
  inserts: Record<string, number>;
  clientCpuPercent: number;
}

/** Runs `scenario` open loop, then waits until the service stopped inserting. */
export async function runScenario(
  base: string,
  credentials: Credentials,
  sampler: InsertSampler,
  scenario: Scenario,
  loop: LoopOptions,
): Promise<Outcome> {
  const cpu = process.cpuUsage();
  const from = performance.now();
  const run = await openLoop({
    base,
    path: scenario.route?.path ?? '/events',
    method: 'POST',
    rate: scenario.rate,
    seconds: scenario.seconds,
    connections: loop.connections,
    senders: scenario.senders,
    drainMs: loop.drainMs,
    make: (index) => {
      const body = scenario.body?.(index) ?? eventBody(scenario.name, index, loop.ids, undefined, loop.dimensions);
      return { headers: scenario.route?.headers(body) ?? eventHeaders(scenario.scheme, credentials, body), body };
    },
  });
  const used = process.cpuUsage(cpu);
  const clientCpuPercent = Math.round(((used.user + used.system) / 1000 / (performance.now() - from)) * 100);
  await quiet(sampler);
  const samples = sampler.between(from, performance.now());
  const batch = (index: number) => scenario.batch?.(index) ?? { first: index, count: 1 };
  const isAccepted = (s: Shot) =>
    scenario.route
      ? scenario.route.accepted(s)
      : s.status === 202 && (JSON.parse(s.body ?? '{}') as { accepted?: number }).accepted === batch(s.index).count;
  const accepted = run.shots.filter(isAccepted).flatMap((s) => {
    const { first, count } = batch(s.index);
    return Array.from({ length: count }, (_, i) => first + i);
  });
  const last = run.offered > 0 ? batch(run.offered - 1) : { first: 0, count: 0 };
  const events = last.first + last.count;
  return { scenario, run, events, accepted, maxInserts: maxPerSecond(samples), inserts: insertsBetween(samples), clientCpuPercent };
}

/** What intake-count.js found: per scenario of the phrases, per event number, and per session hash, times stored. */
export interface Stored {
  phrases: Record<string, Record<string, number>>;
  sessions: Record<string, number>;
}

/** The stored events of every scenario, counted exactly once the service has stopped (or through its server). */
export async function countStored(env: Record<string, string>): Promise<Stored> {
  const worker = spawnNode(path.join(__dirname, 'intake-count.js'), { LOG_LEVEL: 'warn', ...env }, 'pipe');
  let err = '';
  worker.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  try {
    return JSON.parse(await lineOf(worker, 'RESULT ')) as Stored;
  } catch (e) {
    throw new Error(`counting the stored events failed: ${(e as Error).message} ${err}`);
  }
}

export interface Row {
  outcome: Outcome;
  answered: number;
  answeredPerSecond: number;
  statuses: string;
  p50: number;
  p95: number;
  p99: number;
  storedOnce: number;
  lost: number;
  twice: number;
  storedUnanswered: number;
  /** Every request answered 202 with its event accepted, each stored exactly once. */
  allStored: boolean;
  /** allStored, and p95 <= P95_TARGET_MS. */
  pass: boolean;
}

function tally(keys: string[]): string {
  const counts = new Map<string, number>();
  for (const k of keys) {
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `${n.toLocaleString('en')} x ${k}`)
    .join(', ');
}

/** An outcome against `stored` (times stored by event number); latencies and statuses per request. */
export function evaluate(outcome: Outcome, stored: Record<string, number>): Row {
  const { run } = outcome;
  const answeredShots = run.shots.filter((s) => s.status !== undefined);
  const ms = answeredShots.map((s) => s.ms ?? 0).sort((a, b) => a - b);
  const accepted = new Set(outcome.accepted);
  const storedOnce = outcome.accepted.filter((i) => stored[i] === 1).length;
  const lost = outcome.accepted.filter((i) => !stored[i]).length;
  const twice = Object.values(stored).filter((n) => n > 1).length;
  const storedUnanswered = Object.keys(stored).filter((i) => !accepted.has(Number(i)) && stored[i] > 0).length;
  const p95 = quantile(ms, 0.95);
  const allStored = answeredShots.length === run.offered && accepted.size === outcome.events && lost === 0 && twice === 0;
  return {
    outcome,
    answered: answeredShots.length,
    answeredPerSecond: Math.round(answeredShots.length / run.seconds),
    statuses: tally(run.shots.map((s) => (s.status !== undefined ? String(s.status) : (s.error ?? 'no answer')))),
    p50: quantile(ms, 0.5),
    p95,
    p99: quantile(ms, 0.99),
    storedOnce,
    lost,
    twice,
    storedUnanswered,
    allStored,
    pass: allStored && p95 <= P95_TARGET_MS,
  };
}

export const round1 = (n: number) => (Number.isNaN(n) ? NaN : Math.round(n * 10) / 10);
export const count = (n: number) => n.toLocaleString('en');
export const ms = (n: number) => (Number.isNaN(n) ? '-' : `${round1(n).toLocaleString('en')}`);
export const perTable = (rates: Record<string, number>) =>
  Object.entries(rates)
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([table, n]) => `${table} ${n.toLocaleString('en')}`)
    .join(', ') || 'none';
