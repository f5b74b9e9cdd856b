/**
 * npm run bench:intake — the real traffic of POST /events: one search event per request, at a constant arrival
 * rate, open loop (bench/open-loop.ts: requests start on schedule whether or not earlier ones were answered, from as
 * many keep-alive connections as needed up to 512), against the built embedded service in a process of its own
 * (fresh DATA_DIR under tmp/, rate limits off: RATE_LIMIT_PER_MINUTE=0, INTAKE_PER_MINUTE=0).
 *
 * 1. The floor: GET /health/live, closed loop, 64 connections, 5 s: requests answered per second.
 * 2. POST /events with Basic, with a JWT and signed with HMAC (a fresh nonce each): each at a fixed low rate
 *    (50/s, 10 s), then at a fraction of the floor (Basic and JWT 0.4x, HMAC 0.3x, 20 s each); after each, until
 *    the service has stopped inserting (what it took in before the client gave up is still worked on).
 * 3. Per scenario: offered rate, answered per second, answered %, statuses, p50/p95/p99 latency (from the moment a
 *    request was due), the events answered 202 against those stored (counted exactly after the run, each event's
 *    phrase naming its scenario and number: bench/intake-count.ts), and per table the most INSERT statements the
 *    service sent in any one second (its storage_inserts_total counter, sampled every 250 ms: bench/storage-inserts.ts).
 * Targets per scenario: every request answered, p95 <= 250 ms, every 202 stored exactly once.
 *
 * Options (after `--`): --kafka (the Kafka transport instead: the Kafka test broker, the ingest consumer in the same
 * process and a chdb stand-in server over HTTP, bench/chdb-http.ts; recorded as intake-kafka), --hmac=0.3
 * --basic=0.4 --jwt=0.4 (fractions of the floor), --seconds=20, --low-rate=50, --low-seconds=10, --ids (each event
 * carries an id), --connections=512, --drain=10 (seconds answers are awaited after the last request was due).
 * BENCH_ENTRY points it at another checkout's built main.js (the code before a change); such a run prints its
 * figures but does not record them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import * as path from 'node:path';
import { recordFigures, type Figure } from './figures';
import { bearer, createKey, eventBody, eventHeaders, type Credentials, type Scheme } from './intake-events';
import { closedLoopMax, openLoop, type OpenLoopResult } from './open-loop';
import { freePort, peakRssMb, quantile, tableRow } from './proc';
import { InsertSampler, insertsBetween, maxPerSecond, metricSum, metricsText } from './storage-inserts';

const ROOT = path.resolve(__dirname, '../..');
const ENTRY = process.env.BENCH_ENTRY ?? path.join(ROOT, 'dist/apps/standalone/src/main.js');
const MOCK = path.join(ROOT, '.kafka-mock', 'kafka-mock');
const BASIC = 'bench:bench-password-1';
const JWT_SECRET = 'bench-intake-jwt-secret-0123456789abcdef';
const TOPIC = 'bench-intake-events';
const PARTITIONS = 8;
const FLOOR_CONNECTIONS = 64;
const FLOOR_SECONDS = 5;
const P95_TARGET_MS = 250;
/**
 * After a scenario the service is quiet once its insert counts stayed the same this long (at most QUIET_MAX_MS): the
 * requests it took in before the client gave them up are still being worked on, and would load the next scenario.
 */
const QUIET_MS = 1_500;
/** The service's stdout of the last run. */
const SERVICE_LOG = path.join(ROOT, 'tmp', 'bench-intake-service.log');
const QUIET_MAX_MS = 60_000;

function option(name: string, fallback: number): number {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`));
  const value = arg ? Number(arg.slice(name.length + 3)) : fallback;
  if (!Number.isFinite(value) || value <= 0) {
    throw new Error(`--${name} must be a positive number`);
  }
  return value;
}
const flag = (name: string) => process.argv.includes(`--${name}`);

const KAFKA = flag('kafka');
const IDS = flag('ids');
const FRACTIONS: Record<Scheme, number> = { hmac: option('hmac', 0.3), basic: option('basic', 0.4), jwt: option('jwt', 0.4) };
const SECONDS = option('seconds', 20);
const LOW_RATE = option('low-rate', 50);
const LOW_SECONDS = option('low-seconds', 10);
const CONNECTIONS = option('connections', 512);
const DRAIN_MS = option('drain', 10) * 1000;
/** HMAC last in each round: a nonce is looked up and stored per request, so an overloaded HMAC run leaves the longest backlog. */
const SCHEMES: Scheme[] = ['basic', 'jwt', 'hmac'];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const log = (line: string) => process.stderr.write(`${new Date().toISOString()} ${line}\n`);

function spawnNode(script: string, env: Record<string, string>, stdout: 'pipe' | 'ignore' | number): ChildProcess {
  return spawn(process.execPath, [script], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', stdout, 'pipe'],
  });
}

/** The first stdout line of `child` that starts with `prefix`, without it. */
function lineOf(child: ChildProcess, prefix: string): Promise<string> {
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

async function stop(child: ChildProcess): Promise<void> {
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

/** What a run of the Kafka variant needs besides the service: the broker and the storage server. */
interface Storage {
  env: Record<string, string>;
  stop(): Promise<void>;
}

async function kafkaStorage(): Promise<Storage> {
  if (!existsSync(MOCK)) {
    throw new Error(`${MOCK} is missing: run scripts/build-kafka-mock.sh --install`);
  }
  const mock = spawn(MOCK, ['1', `${TOPIC}:${PARTITIONS}`, 'catalogue-documents:1'], { stdio: ['pipe', 'pipe', 'ignore'] });
  const brokers = await lineOf(mock, '');
  const dataDir = mkdtempSync(path.join(ROOT, 'tmp', 'bench-intake-server-'));
  const server = spawnNode(path.join(__dirname, 'chdb-http.js'), { DATA_DIR: dataDir }, 'pipe');
  server.stderr!.resume();
  const port = await lineOf(server, 'PORT ');
  return {
    env: {
      KAFKA_BROKERS: brokers,
      KAFKA_TOPIC_SEARCH_EVENTS: TOPIC,
      KAFKA_GROUP_ID: 'bench-intake',
      CLICKHOUSE_URL: `http://127.0.0.1:${port}`,
    },
    stop: async () => {
      await stop(server);
      mock.kill('SIGTERM');
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

interface Service {
  child: ChildProcess;
  base: string;
  dataDir: string;
  stderr(): string;
}

async function startService(extraEnv: Record<string, string>): Promise<Service> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(ROOT, 'tmp', 'bench-intake-'));
  const child = spawnNode(
    ENTRY,
    {
      DATA_DIR: dataDir,
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
      return { child, base, dataDir, stderr: () => err };
    }
  }
}

/** Waits until the service's insert counts stayed the same for QUIET_MS (at most QUIET_MAX_MS). */
async function quiet(sampler: InsertSampler): Promise<void> {
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

/** Kafka: waits until the consumer has caught up (no lag) and stored nothing more for 3 s (at most 300 s). */
async function consumed(base: string): Promise<boolean> {
  const deadline = Date.now() + 300_000;
  let last = -1;
  let stable = 0;
  while (Date.now() < deadline) {
    const text = await metricsText(base).catch(() => '');
    const accepted = metricSum(text, 'ingest_items_accepted_total', 'source="kafka"');
    const lag = metricSum(text, 'ingest_consumer_lag');
    stable = accepted === last && lag === 0 ? stable + 1 : 0;
    last = accepted;
    if (stable >= 6) {
      return true;
    }
    await sleep(500);
  }
  log('the consumer did not catch up within 300 s: counting what is stored');
  return false;
}

interface Scenario {
  name: string;
  scheme: Scheme;
  rate: number;
  seconds: number;
  /** '50/s fixed' or '0.3x of the floor'. */
  label: string;
}

interface Outcome {
  scenario: Scenario;
  run: OpenLoopResult;
  /** Indices answered 202 with the event accepted. */
  accepted: number[];
  maxInserts: Record<string, number>;
  inserts: Record<string, number>;
  clientCpuPercent: number;
}

async function runScenario(base: string, credentials: Credentials, sampler: InsertSampler, scenario: Scenario): Promise<Outcome> {
  const cpu = process.cpuUsage();
  const from = performance.now();
  const run = await openLoop({
    base,
    path: '/events',
    method: 'POST',
    rate: scenario.rate,
    seconds: scenario.seconds,
    connections: CONNECTIONS,
    drainMs: DRAIN_MS,
    make: (index) => {
      const body = eventBody(scenario.name, index, IDS);
      return { headers: eventHeaders(scenario.scheme, credentials, body), body };
    },
  });
  const used = process.cpuUsage(cpu);
  const clientCpuPercent = Math.round(((used.user + used.system) / 1000 / (performance.now() - from)) * 100);
  await quiet(sampler);
  const samples = sampler.between(from, performance.now());
  const accepted = run.shots
    .filter((s) => s.status === 202 && (JSON.parse(s.body ?? '{}') as { accepted?: number }).accepted === 1)
    .map((s) => s.index);
  return { scenario, run, accepted, maxInserts: maxPerSecond(samples), inserts: insertsBetween(samples), clientCpuPercent };
}

/** The stored events of every scenario, counted exactly once the service has stopped (or through its server). */
async function countStored(env: Record<string, string>): Promise<Record<string, Record<string, number>>> {
  const worker = spawnNode(path.join(__dirname, 'intake-count.js'), { LOG_LEVEL: 'warn', ...env }, 'pipe');
  let err = '';
  worker.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  try {
    return JSON.parse(await lineOf(worker, 'RESULT ')) as Record<string, Record<string, number>>;
  } catch (e) {
    throw new Error(`counting the stored events failed: ${(e as Error).message} ${err}`);
  }
}

interface Row {
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

function evaluate(outcome: Outcome, stored: Record<string, number>): Row {
  const { run } = outcome;
  const answeredShots = run.shots.filter((s) => s.status !== undefined);
  const ms = answeredShots.map((s) => s.ms ?? 0).sort((a, b) => a - b);
  const accepted = new Set(outcome.accepted);
  const storedOnce = outcome.accepted.filter((i) => stored[i] === 1).length;
  const lost = outcome.accepted.filter((i) => !stored[i]).length;
  const twice = Object.values(stored).filter((n) => n > 1).length;
  const storedUnanswered = Object.keys(stored).filter((i) => !accepted.has(Number(i)) && stored[i] > 0).length;
  const p95 = quantile(ms, 0.95);
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
    pass: answeredShots.length === run.offered && accepted.size === run.offered && p95 <= P95_TARGET_MS && lost === 0 && twice === 0,
  };
}

const round1 = (n: number) => (Number.isNaN(n) ? NaN : Math.round(n * 10) / 10);
const count = (n: number) => n.toLocaleString('en');
const ms = (n: number) => (Number.isNaN(n) ? '-' : `${round1(n).toLocaleString('en')}`);
const perTable = (rates: Record<string, number>) =>
  Object.entries(rates)
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([table, n]) => `${table} ${n.toLocaleString('en')}`)
    .join(', ') || 'none';

/** Runs the benchmark; answers its report (Markdown). */
async function main(): Promise<string> {
  mkdirSync(path.join(ROOT, 'tmp'), { recursive: true });
  const variant = KAFKA ? 'Kafka transport, a chdb stand-in server over HTTP' : 'embedded';
  const load = loadavg()
    .map((n) => n.toFixed(1))
    .join(', ');
  log(`intake benchmark (${variant}) on ${ENTRY}, load average ${load}`);
  const storage = KAFKA ? await kafkaStorage() : undefined;
  const service = await startService(storage?.env ?? {});
  const sampler = new InsertSampler(service.base);
  const outcomes: Outcome[] = [];
  let floor = 0;
  let peakMb = 0;
  let caughtUp = false;
  try {
    const basic = `Basic ${Buffer.from(BASIC).toString('base64')}`;
    const credentials: Credentials = { secret: await createKey(service.base, basic), basic, bearer: bearer(JWT_SECRET) };
    floor = await closedLoopMax(service.base, '/health/live', FLOOR_CONNECTIONS, FLOOR_SECONDS);
    log(`floor: GET /health/live ${Math.round(floor)} requests/s (closed loop, ${FLOOR_CONNECTIONS} connections)`);
    const scenarios: Scenario[] = [
      ...SCHEMES.map((scheme) => ({
        name: `${scheme}-${LOW_RATE}`,
        scheme,
        rate: LOW_RATE,
        seconds: LOW_SECONDS,
        label: `${LOW_RATE}/s fixed`,
      })),
      ...SCHEMES.map((scheme) => ({
        name: `${scheme}-${FRACTIONS[scheme]}x`,
        scheme,
        rate: Math.max(1, Math.round(FRACTIONS[scheme] * floor)),
        seconds: SECONDS,
        label: `${FRACTIONS[scheme]}x of the floor`,
      })),
    ];
    for (const scenario of scenarios) {
      log(`${scenario.name}: ${scenario.rate}/s for ${scenario.seconds} s`);
      const outcome = await runScenario(service.base, credentials, sampler, scenario);
      outcomes.push(outcome);
      log(
        `${scenario.name}: ${outcome.run.shots.filter((s) => s.status !== undefined).length} of ${outcome.run.offered} answered, ` +
          `${outcome.accepted.length} accepted; max inserts/s ${perTable(outcome.maxInserts)}`,
      );
    }
    caughtUp = KAFKA ? await consumed(service.base) : true;
    peakMb = peakRssMb(service.child.pid!);
  } finally {
    await sampler.stop();
    await stop(service.child);
  }
  let stored: Record<string, Record<string, number>> = {};
  try {
    stored = await countStored(storage ? { CLICKHOUSE_URL: storage.env.CLICKHOUSE_URL } : { DATA_DIR: service.dataDir });
  } finally {
    await storage?.stop();
    rmSync(service.dataDir, { recursive: true, force: true });
  }
  const rows = outcomes.map((o) => evaluate(o, stored[o.scenario.name] ?? {}));

  const bench = KAFKA ? 'intake-kafka' : 'intake';
  const date = new Date().toISOString().slice(0, 10);
  const figures: Figure[] = [
    {
      name: `GET /health/live floor (closed loop, ${FLOOR_CONNECTIONS} connections)`,
      value: Math.round(floor),
      unit: 'req/s',
      target: 'reported',
      pass: null,
    },
    ...rows.map((r): Figure => {
      const s = r.outcome.scenario;
      return {
        name: `POST /events ${s.scheme.toUpperCase()}, ${s.label}: answered`,
        value: round1((r.answered / r.outcome.run.offered) * 100),
        unit: '%',
        target: 'all, p95 <= 250 ms, each 202 stored once',
        pass: r.pass,
        note:
          `${count(s.rate)}/s offered, ${count(r.answeredPerSecond)}/s answered, p95 ${ms(r.p95)} ms; ` +
          `${count(r.outcome.accepted.length)} x 202, ${count(r.storedOnce)} stored once, ` +
          `${count(r.lost)} lost, ${count(r.twice)} twice; ` +
          `max inserts/s ${perTable(r.outcome.maxInserts)}`,
      };
    }),
  ];
  if (!process.env.BENCH_ENTRY) {
    recordFigures(bench, figures);
  }
  const report = [
    '',
    `## Intake: POST /events, one event per request, open loop (${variant}, ${date})`,
    '',
    `Floor: GET /health/live ${Math.round(floor).toLocaleString('en')} requests/s (closed loop, ${FLOOR_CONNECTIONS} connections, ` +
      `${FLOOR_SECONDS} s). Up to ${CONNECTIONS} connections; answers awaited ${DRAIN_MS / 1000} s after the last request was due` +
      `${IDS ? '; each event with an id' : ''}. Latency from the moment a request was due, of the answered ones. ` +
      `Service peak RSS ${peakMb} MB. Load average at the start: ${load}.` +
      (caughtUp ? '' : ' The consumer had not caught up 300 s after the last scenario: "lost" counts the events not stored yet.'),
    '',
    tableRow(
      'scenario',
      'offered /s',
      'answered /s',
      'answered',
      'statuses',
      'p50 ms',
      'p95 ms',
      'p99 ms',
      '202 / stored once / lost / twice',
      'stored, not answered 202',
      'max INSERTs per s, by table',
      'connections',
      'client: CPU, latest start',
      'result',
    ),
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map((r) =>
      tableRow(
        `${r.outcome.scenario.scheme.toUpperCase()}, ${r.outcome.scenario.label}, ${r.outcome.scenario.seconds} s`,
        r.outcome.scenario.rate.toLocaleString('en'),
        r.answeredPerSecond.toLocaleString('en'),
        `${round1((r.answered / r.outcome.run.offered) * 100)} %`,
        r.statuses,
        ms(r.p50),
        ms(r.p95),
        ms(r.p99),
        [r.outcome.accepted.length, r.storedOnce, r.lost, r.twice].map(count).join(' / '),
        count(r.storedUnanswered),
        perTable(r.outcome.maxInserts),
        r.outcome.run.connectionsUsed,
        `${r.outcome.clientCpuPercent} %, ${Math.round(r.outcome.run.maxStartLagMs)} ms`,
        r.pass ? 'pass' : '**miss**',
      ),
    ),
    '',
    `INSERT statements per scenario, by table: ${rows.map((r) => `${r.outcome.scenario.name}: ${perTable(r.outcome.inserts)}`).join('; ')}`,
    '',
  ];
  return report.join('\n');
}

// The exit ends what a failed run may have left (its sampler's timer, a child's pipes).
main().then(
  (report) => {
    process.stdout.write(report);
    process.exit(0);
  },
  (err: Error) => {
    process.stderr.write(`${err.stack}\n`);
    process.exit(1);
  },
);
