/**
 * npm run bench:intake-mixed (`bench:intake -- --mixed`): queries and ingest sharing the embedded engine. On a data
 * set of 1M events over 30 days (tmp/bench-intake-mixed, loaded by bench/query-worker.ts and reused for 6 hours;
 * each run works on a copy of it), the built service with the answer cache off (SEARCH_TERMS_CACHE_MS=0) and the
 * rate limits off:
 *
 * 1. Alone: three analytics clients (bench/intake-readers.ts, a process of their own), each sending one of
 *    `GET /search-terms?since=1d`, `GET /search-terms?since=30d`, `GET /search-stats?since=7d` again as soon as it is
 *    answered: 3 s of warm-up, then 20 s measured.
 * 2. A shop's load: the same clients, and for the same 20 s `POST /events` HMAC signed with a fresh nonce each, as a
 *    shop's servers send them: 8 senders on keep-alive connections, batches of 1 to 25 events (uniform, a fixed seed),
 *    about 1,000 events (77 requests) a second, open loop (bench/open-loop.ts). Each event is a search of the data
 *    set's newest day sent again, whose session id names its number (so the queries count no new term, and every
 *    accepted event is matched to its row once counted: bench/intake-count.ts); and every 500 ms a freshness probe:
 *    one event with a new phrase, then `GET /search-terms/{its id}?since=1d` every 50 ms until it is found (10 s at
 *    most); its freshness runs from sending the event to that answer.
 * 3. Single events: the same with 1,000 single-event requests a second from one client (up to 512 connections),
 *    reported beside: it costs the service a request's work per event.
 *
 * Targets (the shop's load): every event answered 202 and stored exactly once; freshness p95 <= 1,000 ms; each
 * query's p50 beside the intake at most 1.5x its p50 alone; at most 10 INSERTs per second into any table
 * (storage_inserts_total, sampled every 250 ms). Options: --rate=1000 (events/s), --senders=8, --max-batch=25,
 * --seconds=20, --warmup=3, --events=1000000, --connections=512, --drain=10, --scheme=hmac (or basic, jwt). Recorded
 * as intake-mixed.
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import * as path from 'node:path';
import { termId } from '../apps/query/src/analytics/term-id';
import { recordFigures, type Figure } from './figures';
import { mulberry32, searchEvents } from './generator';
import {
  bearer,
  createKey,
  eventBody,
  eventHeaders,
  eventsBody,
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
/** Events a second in both phases: the shop's in batches, the single-event phase one a request. */
const RATE = intake.option('rate', 1000);
const SENDERS = intake.option('senders', 8);
const MAX_BATCH = intake.option('max-batch', 25);
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
const SHOP = 'shop';
const SINGLE = 'single';
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

/** A probe every PROBE_EVERY_MS for `seconds`, numbered from `from`; resolves when each has found its term or given up. */
async function probes(base: string, credentials: Credentials, seconds: number, from: number): Promise<Probe[]> {
  const started: Promise<Probe>[] = [];
  for (const end = performance.now() + seconds * 1000; performance.now() < end; await intake.sleep(PROBE_EVERY_MS)) {
    started.push(probe(base, credentials, from + started.length));
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

const sessionHash = (scenario: string, index: number) =>
  createHash('sha256')
    .update(`${CUSTOMER}:${sessionOf(scenario, index)}`)
    .digest('hex');

/**
 * What a shop sends: batches of 1 to MAX_BATCH events (uniform, a fixed seed), from SENDERS senders, about RATE events
 * a second in all (RATE / mean batch requests a second), open loop.
 */
function shopScenario(searches: readonly Search[]): intake.Scenario {
  const random = mulberry32(47);
  const rate = RATE / ((1 + MAX_BATCH) / 2);
  const requests = Math.ceil(rate * SECONDS) + 1;
  const sizes = Array.from({ length: requests }, () => 1 + Math.floor(random() * MAX_BATCH));
  const firsts: number[] = [];
  sizes.reduce((next, size) => (firsts.push(next), next + size), 0);
  const batch = (index: number) => ({ first: firsts[index], count: sizes[index] });
  return {
    name: SHOP,
    scheme: SCHEME,
    rate,
    seconds: SECONDS,
    senders: SENDERS,
    label: `${count(RATE)} events/s in batches of 1-${MAX_BATCH} from ${SENDERS} senders`,
    batch,
    body: (index) => {
      const { first, count: n } = batch(index);
      return eventsBody(
        SHOP,
        first,
        Array.from({ length: n }, (_, i) => searches[(first + i) % searches.length]),
      );
    },
  };
}

/** One event a request, RATE requests a second, from one client (up to CONNECTIONS connections): reported beside. */
function singleScenario(searches: readonly Search[]): intake.Scenario {
  return {
    name: SINGLE,
    scheme: SCHEME,
    rate: RATE,
    seconds: SECONDS,
    label: `${count(RATE)} single-event requests/s`,
    body: (index) => eventBody(SINGLE, index, false, searches[index % searches.length]),
  };
}

/** A phase beside the analytics clients: the scenario, the freshness probes (numbered from `probesFrom`), the clients. */
interface Phase {
  outcome: intake.Outcome;
  fresh: Probe[];
  together: Record<string, ReaderResult>;
}

async function phase(
  base: string,
  credentials: Credentials,
  sampler: InsertSampler,
  scenario: intake.Scenario,
  probesFrom: number,
): Promise<Phase> {
  intake.log(`${scenario.name}: the three queries, and POST /events (${scenario.label}) with a freshness probe every ${PROBE_EVERY_MS} ms`);
  const clients = readers(base);
  await clients.measuring;
  const [outcome, fresh, together] = await Promise.all([
    intake.runScenario(base, credentials, sampler, scenario, { connections: CONNECTIONS, drainMs: DRAIN_MS, ids: false }),
    probes(base, credentials, SECONDS, probesFrom),
    clients.result,
  ]);
  intake.log(`${scenario.name}: ${QUERIES.map((q) => `${q} p50 ${ms(together[q].p50)} ms`).join(', ')}`);
  return { outcome, fresh, together };
}

/** A phase's figures; `targets`: against the targets (the shop's load), else reported. */
function phaseFigures(p: Phase, row: intake.Row, alone: Record<string, ReaderResult>, targets: boolean): Figure[] {
  const { outcome, fresh, together } = p;
  const what = targets ? `${outcome.scenario.label}` : `${count(RATE)}/s single-event requests`;
  const freshMs = fresh.map((x) => x.ms ?? Infinity).sort((a, b) => a - b);
  // A probe not found within PROBE_MAX_MS has no freshness: a quantile that falls among them is none (NaN, shown '-').
  const found = (n: number) => (Number.isFinite(n) ? n : NaN);
  const freshP50 = found(quantile(freshMs, 0.5));
  const freshP95 = found(quantile(freshMs, 0.95));
  const target = (t: string, pass: boolean) => (targets ? { target: t, pass } : { target: 'reported', pass: null });
  return [
    {
      name: `POST /events ${SCHEME.toUpperCase()}, ${what}, open loop beside 3 analytics clients: answered`,
      value: round1((row.answered / outcome.run.offered) * 100),
      unit: '%',
      ...target('all, each 202 stored once', row.allStored),
      note:
        `${count(row.answeredPerSecond)} requests/s answered, p50 / p95 / p99 ${ms(row.p50)} / ${ms(row.p95)} / ${ms(row.p99)} ms; ` +
        `${count(outcome.events)} events, ${count(outcome.accepted.length)} accepted, ${count(row.storedOnce)} stored once, ` +
        `${count(row.lost)} lost, ${count(row.twice)} twice`,
    },
    {
      name: `freshness p95 (event sent -> its term in GET /search-terms/{id}), beside 3 analytics clients and ${what}`,
      value: Math.round(freshP95),
      unit: 'ms',
      ...target(`<= ${FRESHNESS_TARGET_MS} ms`, freshP95 <= FRESHNESS_TARGET_MS),
      note:
        `p50 ${ms(freshP50)} ms, ${fresh.filter((x) => x.ms !== undefined).length} of ${fresh.length} probes found ` +
        `within ${PROBE_MAX_MS / 1000} s`,
    },
    ...QUERIES.map((q): Figure => {
      const ratio = together[q].p50 / alone[q].p50;
      return {
        name: `GET ${q} p50 beside ${what} / alone`,
        value: Math.round(ratio * 100) / 100,
        unit: 'x',
        ...target(`<= ${RATIO_MAX}x`, ratio <= RATIO_MAX),
        note: `alone ${ms(alone[q].p50)} ms, beside ${ms(together[q].p50)} ms`,
      };
    }),
    {
      name: `most INSERTs per second into one table, beside ${what}`,
      value: Math.max(0, ...Object.values(outcome.maxInserts)),
      unit: '/s',
      ...target(`<= ${INSERTS_MAX} per table`, Math.max(0, ...Object.values(outcome.maxInserts)) <= INSERTS_MAX),
      note: perTable(outcome.maxInserts),
    },
  ];
}

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
  let alone: Record<string, ReaderResult>;
  let shop: Phase;
  let single: Phase;
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
    shop = await phase(service.base, credentials, sampler, shopScenario(searches), 0);
    single = await phase(service.base, credentials, sampler, singleScenario(searches), shop.fresh.length);
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
  const rowOf = (p: Phase) => {
    const byIndex: Record<string, number> = {};
    for (let i = 0; i < p.outcome.events; i++) {
      const times = stored.sessions[sessionHash(p.outcome.scenario.name, i)];
      if (times !== undefined) {
        byIndex[i] = times;
      }
    }
    return intake.evaluate(p.outcome, byIndex);
  };
  const [shopRow, singleRow] = [rowOf(shop), rowOf(single)];
  const figures = [...phaseFigures(shop, shopRow, alone, true), ...phaseFigures(single, singleRow, alone, false)];
  if (!process.env.BENCH_ENTRY) {
    recordFigures('intake-mixed', figures);
  }
  const probes = [...shop.fresh, ...single.fresh];
  const probesStored = Object.values(stored.phrases[FRESH] ?? {}).filter((n) => n === 1).length;
  const statuses = (r: ReaderResult) =>
    Object.entries(r.statuses)
      .map(([st, n]) => `${count(n)} x ${st}`)
      .join(', ');
  const date = new Date().toISOString().slice(0, 10);
  return [
    '',
    `## Intake, mixed: POST /events beside 3 analytics clients (embedded, ${date})`,
    '',
    `Data set: ${count(set.events)} events over 30 days (loaded ${set.loadedAt}), answer cache off. ${SECONDS} s per phase ` +
      `after ${WARMUP_MS / 1000} s of warm-up: alone, then a shop's load (${shop.outcome.scenario.label}), then ` +
      `${count(RATE)} single-event requests/s (reported). Service peak RSS ${peakMb} MB. Load average at the start: ${load}.`,
    '',
    tableRow('figure', 'value', 'target', 'result'),
    '|---|---|---|---|',
    ...figures.map((f) =>
      tableRow(
        f.name,
        `${Number.isFinite(f.value) ? f.value.toLocaleString('en') : '-'}${f.unit === 'x' ? 'x' : ` ${f.unit}`} (${f.note})`,
        f.target,
        f.pass === null ? '-' : f.pass ? 'pass' : '**miss**',
      ),
    ),
    '',
    tableRow(
      'query',
      'alone p50 / p95 ms',
      'shop load p50 / p95 ms',
      'single-event p50 / p95 ms',
      'requests alone / shop / single',
      'statuses',
    ),
    '|---|---|---|---|---|---|',
    ...QUERIES.map((q) =>
      tableRow(
        `GET ${q}`,
        `${ms(alone[q].p50)} / ${ms(alone[q].p95)}`,
        `${ms(shop.together[q].p50)} / ${ms(shop.together[q].p95)}`,
        `${ms(single.together[q].p50)} / ${ms(single.together[q].p95)}`,
        `${count(alone[q].requests)} / ${count(shop.together[q].requests)} / ${count(single.together[q].requests)}`,
        `${statuses(shop.together[q])}; ${statuses(single.together[q])}`,
      ),
    ),
    '',
    ...(
      [
        [shop, shopRow],
        [single, singleRow],
      ] as const
    ).map(
      ([p, row]) =>
        `${p.outcome.scenario.label}: ${row.statuses}; stored without a 202: ${count(row.storedUnanswered)}; ` +
        `client CPU ${p.outcome.clientCpuPercent} %, latest start ${Math.round(p.outcome.run.maxStartLagMs)} ms, ` +
        `${p.outcome.run.connectionsUsed} connections; INSERT statements, by table: ${perTable(p.outcome.inserts)}.`,
    ),
    '',
    `Alone: most INSERTs per second ${perTable(aloneInserts)}. Probes: ${probes.filter((x) => x.status === 202).length} of ` +
      `${probes.length} answered 202, ${probesStored} stored once, ${probes.reduce((n, x) => n + x.polls, 0)} polls.`,
    '',
  ].join('\n');
}
