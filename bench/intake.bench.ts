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
 * carries an id; recorded as intake-ids), --dimensions (each event carries the scale data sets' filters, user token,
 * country and tags; recorded as intake-dimensions), --connections=512, --drain=10 (seconds answers are awaited
 * after the last request was due).
 * --clicks runs bench/intake-clicks.ts instead (`npm run bench:intake-clicks`, recorded as intake-clicks): clicks on
 * POST /1/events beside search events on POST /events, and click freshness.
 * --mixed runs the other mode instead (bench/intake-mixed.ts, `npm run bench:intake-mixed`, recorded as
 * intake-mixed): 1,000 HMAC events/s beside three analytics clients on a data set of 1M events, with freshness probes.
 * BENCH_ENTRY points it at another checkout's built main.js (the code before a change); such a run prints its
 * figures but does not record them. The parts both modes share are in bench/intake-service.ts.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import * as path from 'node:path';
import { recordFigures, type Figure } from './figures';
import { bearer, createKey, type Credentials, type Scheme } from './intake-events';
import { clicks } from './intake-clicks';
import { mixed } from './intake-mixed';
import { closedLoopMax } from './open-loop';
import { peakRssMb, tableRow } from './proc';
import {
  BASIC,
  ENTRY,
  JWT_SECRET,
  ROOT,
  count,
  countStored,
  evaluate,
  flag,
  lineOf,
  log,
  ms,
  option,
  perTable,
  round1,
  runScenario,
  sleep,
  spawnNode,
  startService,
  stop,
  type Outcome,
  type Scenario,
} from './intake-service';
import { InsertSampler, metricSum, metricsText } from './storage-inserts';

const MOCK = path.join(ROOT, '.kafka-mock', 'kafka-mock');
const TOPIC = 'bench-intake-events';
const PARTITIONS = 8;
const FLOOR_CONNECTIONS = 64;
const FLOOR_SECONDS = 5;

const KAFKA = flag('kafka');
const IDS = flag('ids');
const DIMENSIONS = flag('dimensions');
const FRACTIONS: Record<Scheme, number> = { hmac: option('hmac', 0.3), basic: option('basic', 0.4), jwt: option('jwt', 0.4) };
const SECONDS = option('seconds', 20);
const LOW_RATE = option('low-rate', 50);
const LOW_SECONDS = option('low-seconds', 10);
const CONNECTIONS = option('connections', 512);
const DRAIN_MS = option('drain', 10) * 1000;
/** HMAC last in each round: a nonce is looked up and stored per request, so an overloaded HMAC run leaves the longest backlog. */
const SCHEMES: Scheme[] = ['basic', 'jwt', 'hmac'];

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
      const outcome = await runScenario(service.base, credentials, sampler, scenario, {
        connections: CONNECTIONS,
        drainMs: DRAIN_MS,
        ids: IDS,
        dimensions: DIMENSIONS,
      });
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
    stored = (await countStored(storage ? { CLICKHOUSE_URL: storage.env.CLICKHOUSE_URL } : { DATA_DIR: service.dataDir })).phrases;
  } finally {
    await storage?.stop();
    rmSync(service.dataDir, { recursive: true, force: true });
  }
  const rows = outcomes.map((o) => evaluate(o, stored[o.scenario.name] ?? {}));

  const bench = KAFKA ? 'intake-kafka' : IDS ? 'intake-ids' : DIMENSIONS ? 'intake-dimensions' : 'intake';
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
(flag('clicks') ? clicks() : flag('mixed') ? mixed() : main()).then(
  (report) => {
    process.stdout.write(report);
    process.exit(0);
  },
  (err: Error) => {
    process.stderr.write(`${err.stack}\n`);
    process.exit(1);
  },
);
