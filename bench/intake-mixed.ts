/**
 * npm run bench:intake-mixed (`bench:intake -- --mixed`): queries and ingest sharing the embedded engine. On a data
 * set of 1M events over 30 days (tmp/bench-intake-mixed, loaded by bench/query-worker.ts and reused for 6 hours;
 * each run works on a copy of it), the built service with the answer cache off (SEARCH_TERMS_CACHE_MS=0) and the
 * rate limits off:
 *
 * 1. Alone: three analytics clients (bench/intake-readers.ts, a process of their own), each sending one of
 *    `GET /search-terms?since=1d`, `GET /search-terms?since=30d`, `GET /search-stats?since=7d` again as soon as it is
 *    answered: 3 s of warm-up, then 20 s measured.
 * 2. Mixed: the same clients, and for the same 20 s single-event `POST /events`, HMAC signed with a fresh nonce each,
 *    at 1,000/s open loop (bench/open-loop.ts), each event a search of the data set's newest day sent again, whose
 *    session id names its number (so the queries count no new term, and every 202 is matched to its row once
 *    counted: bench/intake-count.ts); and every 500 ms a freshness probe: one event with a new phrase, then
 *    `GET /search-terms/{its id}?since=1d` every 50 ms until it is found (10 s at most); its freshness runs from
 *    sending the event to that answer.
 *
 * Targets: every event answered 202 and stored exactly once; freshness p95 <= 1,000 ms; each query's p50 mixed at
 * most 1.5x its p50 alone; at most 10 INSERTs per second into any table (storage_inserts_total, sampled every 250 ms).
 * Options: --rate=1000, --seconds=20, --warmup=3, --events=1000000, --connections=512, --drain=10, --scheme=hmac
 * (or basic, jwt). Recorded as intake-mixed.
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import * as path from 'node:path';
import { termId } from '../apps/query/src/analytics/term-id';
import { recordFigures, type Figure } from './figures';
import { searchEvents } from './generator';
import {
  bearer,
  createKey,
  eventBody,
  eventHeaders,
  PHRASE_PREFIX,
  sessionOf,
  type Credentials,
  type Scheme,
  type Search,
} from './intake-events';
import type { ReaderResult } from './intake-readers';
import * as intake from './intake-service';
import { peakRssMb, quantile, tableRow } from './proc';
import { loadDataSet } from './query-app';
import { InsertSampler, maxPerSecond } from './storage-inserts';

const { count, ms, perTable, round1 } = intake;
const RATE = intake.option('rate', 1000);
const SECONDS = intake.option('seconds', 20);
const WARMUP_MS = intake.option('warmup', 3) * 1000;
const EVENTS = intake.option('events', 1_000_000);
const CONNECTIONS = intake.option('connections', 512);
const DRAIN_MS = intake.option('drain', 10) * 1000;
/** The events' (and probes') credentials: `--scheme=basic` or `jwt` instead of HMAC, to tell the nonce's part. */
const SCHEME = (process.argv.find((a) => a.startsWith('--scheme='))?.slice(9) ?? 'hmac') as Scheme;
if (!['hmac', 'basic', 'jwt'].includes(SCHEME)) {
  throw new Error('--scheme must be hmac, basic or jwt');
}
const SET_DIR = path.join(intake.ROOT, 'tmp', 'bench-intake-mixed');
const SET_DATA = path.join(SET_DIR, 'data');
const SET_MARK = path.join(SET_DIR, 'loaded.json');
/**
 * A data set older than this is loaded again (about a minute): its events end when it was loaded, so its 1d window
 * empties with age, and the replayed newest day (newestDay) would bring terms new to that window.
 */
const SET_MAX_AGE_MS = 6 * 3_600_000;
/** The database the query benchmarks' loader (bench/query-worker.ts) writes; the service and the count use it too. */
const DATABASE = 'bench';
const CUSTOMER = 'demo';
const INSTANCE = 'live';
const QUERIES = ['/search-terms?since=1d', '/search-terms?since=30d', '/search-stats?since=7d'];
const RATIO_MAX = 1.5;
const FRESHNESS_TARGET_MS = 1000;
const INSERTS_MAX = 10;
const PROBE_EVERY_MS = 500;
const POLL_MS = 50;
const PROBE_MAX_MS = 10_000;
const DAY = 24 * 3_600_000;
/** The scenarios' names: in the phrases (probes) and session ids (events) of what they send. */
const MIXED = 'mixed';
const FRESH = 'fresh';

const authorization = `Basic ${Buffer.from(intake.BASIC).toString('base64')}`;

/** The data set: loaded (or reused when younger than SET_MAX_AGE_MS) in SET_DATA, with its rollups filled. */
async function dataSet(): Promise<{ events: number; loadedAt: string }> {
  const mark = existsSync(SET_MARK) ? (JSON.parse(readFileSync(SET_MARK, 'utf8')) as { events: number; loadedAt: string }) : undefined;
  if (mark && mark.events >= EVENTS && Date.now() - Date.parse(mark.loadedAt) < SET_MAX_AGE_MS) {
    intake.log(`reusing the data set of ${mark.loadedAt}`);
    return mark;
  }
  rmSync(SET_DIR, { recursive: true, force: true });
  mkdirSync(SET_DATA, { recursive: true });
  intake.log(`loading ${count(EVENTS)} events into ${SET_DATA}`);
  const loadedAt = new Date().toISOString();
  const result = await loadDataSet<{ loadSeconds: number; stats: Record<string, string | number> }>({
    DATA_DIR: SET_DATA,
    CLICKHOUSE_DATABASE: DATABASE,
    BENCH_EVENTS: String(EVENTS),
    BENCH_SKIP_RAW: '1',
  });
  intake.log(`loaded in ${result.loadSeconds.toFixed(1)} s: ${JSON.stringify(result.stats)}`);
  const loaded = { events: Number(result.stats.events), loadedAt };
  writeFileSync(SET_MARK, JSON.stringify(loaded));
  return loaded;
}

/** The three analytics clients for WARMUP_MS + SECONDS; `measuring` resolves when their measured part begins. */
function readers(base: string): { measuring: Promise<string>; result: Promise<Record<string, ReaderResult>> } {
  const child = intake.spawnNode(
    path.join(__dirname, 'intake-readers.js'),
    {
      READERS_BASE: base,
      READERS_AUTHORIZATION: authorization,
      READERS_PATHS: JSON.stringify(QUERIES),
      READERS_WARMUP_MS: String(WARMUP_MS),
      READERS_SECONDS: String(SECONDS),
    },
    'pipe',
  );
  child.stderr!.pipe(process.stderr);
  return {
    measuring: intake.lineOf(child, 'STARTED'),
    result: intake.lineOf(child, 'RESULT ').then((line) => JSON.parse(line) as Record<string, ReaderResult>),
  };
}

interface Probe {
  /** The status of its POST /events (0: no answer). */
  status: number;
  /** From sending the event to the first answer that showed its term; undefined when none did within PROBE_MAX_MS. */
  ms?: number;
  polls: number;
}

/** One probe: event `index` of FRESH (a term nobody searched), then its term detail until it is found. */
async function probe(base: string, credentials: Credentials, index: number): Promise<Probe> {
  const body = eventBody(FRESH, index, false);
  const id = termId(CUSTOMER, INSTANCE, `${PHRASE_PREFIX} ${FRESH} ${index}`);
  const sent = performance.now();
  const posted = await fetch(`${base}/events`, {
    method: 'POST',
    headers: eventHeaders(SCHEME, credentials, body),
    body: new Uint8Array(body),
  }).then(
    async (r) => (await r.arrayBuffer(), r.status),
    () => 0,
  );
  let polls = 0;
  while (posted === 202 && performance.now() - sent < PROBE_MAX_MS) {
    const next = performance.now() + POLL_MS;
    polls++;
    const status = await fetch(`${base}/search-terms/${id}?since=1d`, { headers: { authorization } }).then(
      async (r) => (await r.arrayBuffer(), r.status),
      () => 0,
    );
    if (status === 200) {
      return { status: posted, ms: performance.now() - sent, polls };
    }
    await intake.sleep(Math.max(0, next - performance.now()));
  }
  return { status: posted, polls };
}

/** A probe every PROBE_EVERY_MS for `seconds`; resolves when each has found its term or given up. */
async function probes(base: string, credentials: Credentials, seconds: number): Promise<Probe[]> {
  const started: Promise<Probe>[] = [];
  for (const end = performance.now() + seconds * 1000; performance.now() < end; await intake.sleep(PROBE_EVERY_MS)) {
    started.push(probe(base, credentials, started.length));
  }
  return Promise.all(started);
}

/**
 * The searches of the data set's newest day that no bot made (its loader's generator and seed give the same events;
 * whether one is of the newest day depends only on its random draw), in the generator's order, which is random in
 * time. Sent again, they count in the windows of all three queries without adding a term to any.
 */
function newestDay(): Search[] {
  const searches: Search[] = [];
  const end = 31 * DAY;
  for (const e of searchEvents(EVENTS, { customer: CUSTOMER, spanMs: 30 * DAY, end })) {
    if (e.ts > end - DAY && !/bot/i.test(e.userAgent)) {
      searches.push({ phrase: e.phrase, language: e.language, hits: e.hits });
    }
  }
  return searches;
}

const sessionHash = (index: number) =>
  createHash('sha256')
    .update(`${CUSTOMER}:${sessionOf(MIXED, index)}`)
    .digest('hex');

/** Runs the mixed mode; answers its report (Markdown). */
export async function mixed(): Promise<string> {
  const load = loadavg()
    .map((n) => n.toFixed(1))
    .join(', ');
  intake.log(`intake benchmark, mixed, on ${intake.ENTRY}, load average ${load}`);
  const set = await dataSet();
  const runDir = mkdtempSync(path.join(intake.ROOT, 'tmp', 'bench-intake-mixed-run-'));
  cpSync(SET_DATA, runDir, { recursive: true });
  const service = await intake.startService(
    { CLICKHOUSE_DATABASE: DATABASE, SERVICE_CUSTOMER: CUSTOMER, SERVICE_INSTANCES: INSTANCE, SEARCH_TERMS_CACHE_MS: '0' },
    runDir,
  );
  const sampler = new InsertSampler(service.base);
  const searches = newestDay();
  const scenario: intake.Scenario = {
    name: MIXED,
    scheme: SCHEME,
    rate: RATE,
    seconds: SECONDS,
    label: `${count(RATE)}/s with 3 analytics clients`,
    body: (index) => eventBody(MIXED, index, false, searches[index % searches.length]),
  };
  let alone: Record<string, ReaderResult>;
  let together: Record<string, ReaderResult>;
  let fresh: Probe[];
  let outcome: intake.Outcome;
  let peakMb = 0;
  let aloneInserts: Record<string, number>;
  try {
    const credentials: Credentials = {
      secret: await createKey(service.base, authorization),
      basic: authorization,
      bearer: bearer(intake.JWT_SECRET),
    };
    for (const query of QUERIES) {
      const res = await fetch(`${service.base}${query}`, { headers: { authorization } });
      await res.arrayBuffer();
      if (res.status !== 200) {
        throw new Error(`${query} answered ${res.status}`);
      }
    }
    intake.log(`alone: the three queries for ${SECONDS} s after ${WARMUP_MS / 1000} s of warm-up`);
    const first = readers(service.base);
    await first.measuring;
    const aloneFrom = performance.now();
    alone = await first.result;
    aloneInserts = maxPerSecond(sampler.between(aloneFrom, performance.now()));
    intake.log(`alone: ${QUERIES.map((q) => `${q} p50 ${ms(alone[q].p50)} ms`).join(', ')}`);
    intake.log(`mixed: the same, and POST /events at ${RATE}/s with a freshness probe every ${PROBE_EVERY_MS} ms`);
    const second = readers(service.base);
    await second.measuring;
    [outcome, fresh, together] = await Promise.all([
      intake.runScenario(service.base, credentials, sampler, scenario, { connections: CONNECTIONS, drainMs: DRAIN_MS, ids: false }),
      probes(service.base, credentials, SECONDS),
      second.result,
    ]);
    intake.log(`mixed: ${QUERIES.map((q) => `${q} p50 ${ms(together[q].p50)} ms`).join(', ')}`);
    peakMb = peakRssMb(service.child.pid!);
  } finally {
    await sampler.stop();
    await intake.stop(service.child);
  }
  let stored;
  try {
    stored = await intake.countStored({ DATA_DIR: runDir, CLICKHOUSE_DATABASE: DATABASE });
  } finally {
    rmSync(runDir, { recursive: true, force: true });
  }
  const byIndex: Record<string, number> = {};
  for (let i = 0; i < outcome.run.offered; i++) {
    const times = stored.sessions[sessionHash(i)];
    if (times !== undefined) {
      byIndex[i] = times;
    }
  }
  const row = intake.evaluate(outcome, byIndex);
  const freshMs = fresh.map((p) => p.ms ?? Infinity).sort((a, b) => a - b);
  const seen = fresh.filter((p) => p.ms !== undefined).length;
  const probesStored = Object.values(stored.phrases[FRESH] ?? {}).filter((n) => n === 1).length;
  // A probe not found within PROBE_MAX_MS has no freshness: a quantile that falls among them is none (NaN, shown '-').
  const found = (n: number) => (Number.isFinite(n) ? n : NaN);
  const freshP50 = found(quantile(freshMs, 0.5));
  const freshP95 = found(quantile(freshMs, 0.95));
  const ratios = QUERIES.map((q) => together[q].p50 / alone[q].p50);
  const maxInserts = Math.max(0, ...Object.values(outcome.maxInserts));
  const statuses = (r: ReaderResult) =>
    Object.entries(r.statuses)
      .map(([s, n]) => `${count(n)} x ${s}`)
      .join(', ');

  const figures: Figure[] = [
    {
      name: `POST /events ${SCHEME.toUpperCase()}, ${count(RATE)}/s open loop beside 3 analytics clients: answered`,
      value: round1((row.answered / outcome.run.offered) * 100),
      unit: '%',
      target: 'all, each 202 stored once',
      pass: row.allStored,
      note:
        `${count(row.answeredPerSecond)}/s answered, p50 / p95 / p99 ${ms(row.p50)} / ${ms(row.p95)} / ${ms(row.p99)} ms; ` +
        `${count(outcome.accepted.length)} x 202, ${count(row.storedOnce)} stored once, ${count(row.lost)} lost, ${count(row.twice)} twice`,
    },
    {
      name: 'freshness p95 (event sent -> its term in GET /search-terms/{id}), beside 3 analytics clients',
      value: Math.round(freshP95),
      unit: 'ms',
      target: `<= ${FRESHNESS_TARGET_MS} ms`,
      pass: freshP95 <= FRESHNESS_TARGET_MS,
      note: `p50 ${ms(freshP50)} ms, ${seen} of ${fresh.length} probes found within ${PROBE_MAX_MS / 1000} s`,
    },
    ...QUERIES.map((q, i): Figure => ({
      name: `GET ${q} p50 beside the intake / alone`,
      value: Math.round(ratios[i] * 100) / 100,
      unit: 'x',
      target: `<= ${RATIO_MAX}x`,
      pass: ratios[i] <= RATIO_MAX,
      note: `alone ${ms(alone[q].p50)} ms, beside ${ms(together[q].p50)} ms`,
    })),
    {
      name: 'most INSERTs per second into one table, mixed',
      value: maxInserts,
      unit: '/s',
      target: `<= ${INSERTS_MAX} per table`,
      pass: maxInserts <= INSERTS_MAX,
      note: perTable(outcome.maxInserts),
    },
  ];
  if (!process.env.BENCH_ENTRY) {
    recordFigures('intake-mixed', figures);
  }
  const date = new Date().toISOString().slice(0, 10);
  return [
    '',
    `## Intake, mixed: POST /events at ${count(RATE)}/s beside 3 analytics clients (embedded, ${date})`,
    '',
    `Data set: ${count(set.events)} events over 30 days (loaded ${set.loadedAt}), answer cache off. ${SECONDS} s per phase ` +
      `after ${WARMUP_MS / 1000} s of warm-up. Service peak RSS ${peakMb} MB. Load average at the start: ${load}.`,
    '',
    tableRow('figure', 'value', 'target', 'result'),
    '|---|---|---|---|',
    ...figures.map((f) =>
      tableRow(
        f.name,
        `${Number.isFinite(f.value) ? f.value.toLocaleString('en') : '-'}${f.unit === 'x' ? 'x' : ` ${f.unit}`} (${f.note})`,
        f.target,
        f.pass ? 'pass' : '**miss**',
      ),
    ),
    '',
    tableRow('query', 'alone p50 / p95 ms', 'beside p50 / p95 ms', 'ratio of p50s', 'requests alone / beside', 'statuses beside'),
    '|---|---|---|---|---|---|',
    ...QUERIES.map((q, i) =>
      tableRow(
        `GET ${q}`,
        `${ms(alone[q].p50)} / ${ms(alone[q].p95)}`,
        `${ms(together[q].p50)} / ${ms(together[q].p95)}`,
        `${ratios[i].toFixed(2)}x`,
        `${count(alone[q].requests)} / ${count(together[q].requests)}`,
        statuses(together[q]),
      ),
    ),
    '',
    `Events: ${row.statuses}; stored without a 202: ${count(row.storedUnanswered)}; client CPU ${outcome.clientCpuPercent} %, ` +
      `latest start ${Math.round(outcome.run.maxStartLagMs)} ms, ${outcome.run.connectionsUsed} connections. ` +
      `INSERT statements, by table: ${perTable(outcome.inserts)} (alone: most per second ${perTable(aloneInserts)}). ` +
      `Probes: ${fresh.filter((p) => p.status === 202).length} of ${fresh.length} answered 202, ${probesStored} stored once, ` +
      `${fresh.reduce((n, p) => n + p.polls, 0)} polls.`,
    '',
  ].join('\n');
}
