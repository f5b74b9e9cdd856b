/**
 * npm run bench:intake-clicks (bench/intake.bench.ts --clicks): how fast POST /1/events stores clicks beside how fast
 * POST /events stores search events, both over HTTP in the same run, against the built embedded service (rate
 * limits off: INTAKE_PER_MINUTE=0, COLLECT_PER_MINUTE=0), and how soon a click counts.
 *
 * 1. The floor: GET /health/live, closed loop, as bench:intake measures it.
 * 2. POST /events, one search event per request (Basic), then POST /1/events, one click per request (a collector
 *    key in the query string, as search-insights sends it; `text/plain`, as sendBeacon does), each open loop at the
 *    same rate (--fraction of the floor, 0.4 by default) for --seconds; each request's item names its scenario and
 *    number (the search's phrase, the click's object id), so what storage holds is matched to what was answered.
 * 3. Then clicks at --fresh-rate (100/s by default: a large shop's busy hour).
 * 4. During each click phase, every 500 ms a freshness probe: a click on one of the searches stored before (each sent
 *    with an id that found results), then `GET /search-terms/{its term}?engagement=true` every 50 ms until its
 *    `clicks` is 1 (10 s at most); its freshness runs from sending the click to that answer.
 * Targets: clicks stored per second >= 0.8x search events stored per second; every request answered and its item
 * stored once; freshness p95 <= 1,000 ms.
 */
import { randomUUID } from 'node:crypto';
import { termId } from '../apps/query/src/analytics/term-id';
import { recordFigures, type Figure } from './figures';
import { PHRASE_PREFIX } from './intake-events';
import * as intake from './intake-service';
import { closedLoopMax } from './open-loop';
import { quantile, tableRow } from './proc';
import { InsertSampler } from './storage-inserts';

const { count, ms, round1 } = intake;
const FRACTION = intake.option('fraction', 0.4);
const FRESH_RATE = intake.option('fresh-rate', 100);
const SECONDS = intake.option('seconds', 20);
const CONNECTIONS = intake.option('connections', 512);
const DRAIN_MS = intake.option('drain', 10) * 1000;
const CUSTOMER = 'demo';
const RATIO_MIN = 0.8;
const FRESHNESS_TARGET_MS = 1000;
const PROBE_EVERY_MS = 500;
const POLL_MS = 50;
const PROBE_MAX_MS = 10_000;
/** Searches stored before the run for the probes of both click phases to click on, one per probe. */
const PROBE_SEARCHES = 2 * (Math.ceil((SECONDS * 1000) / PROBE_EVERY_MS) + 5);
const SEARCHES = 'searches';
const CLICKS = 'clicks';
const CLICKS_LOW = 'clicks-low';

const authorization = `Basic ${Buffer.from(intake.BASIC).toString('base64')}`;
const hex = () => randomUUID().replace(/-/g, '');

async function post(base: string, path: string, headers: Record<string, string>, body: string): Promise<{ status: number; text: string }> {
  const res = await fetch(`${base}${path}`, { method: 'POST', headers, body });
  return { status: res.status, text: await res.text() };
}

/** A collector key of the instance Basic acts on (POST /secret, preset collector). */
async function collectorKey(base: string): Promise<string> {
  const { status, text } = await post(
    base,
    '/secret',
    { authorization, 'content-type': 'application/json' },
    JSON.stringify({ description: 'clicks benchmark', preset: 'collector' }),
  );
  const secret = (JSON.parse(text) as { secret?: string }).secret;
  if (status !== 201 || !secret) {
    throw new Error(`POST /secret answered ${status}: ${text}`);
  }
  return secret;
}

/** One click of the Insights protocol as search-insights sends it (clickedObjectIDsAfterSearch). */
const click = (queryID: string, objectID: string, position: number) => ({
  eventType: 'click',
  eventName: 'Product Clicked',
  index: 'products',
  userToken: `shopper-${position}`,
  queryID,
  objectIDs: [objectID],
  positions: [position],
  timestamp: Date.now(),
});

interface ProbeSearch {
  id: string;
  phrase: string;
}

/** The probes' searches, each with an id and results, stored (one request) before the run. */
async function probeSearches(base: string): Promise<ProbeSearch[]> {
  const searches = Array.from({ length: PROBE_SEARCHES }, (_, i) => ({ id: randomUUID(), phrase: `${PHRASE_PREFIX} fresh ${i}` }));
  const body = JSON.stringify({ events: searches.map((s) => ({ id: s.id, phrase: s.phrase, language: 'en', hits: 5 })) });
  const { status, text } = await post(base, '/events', { authorization, 'content-type': 'application/json' }, body);
  if (status !== 202 || (JSON.parse(text) as { accepted: number }).accepted !== searches.length) {
    throw new Error(`storing the probes' searches answered ${status}: ${text}`);
  }
  return searches;
}

interface Probe {
  status: number;
  /** From sending the click to the first answer that counted it; undefined when none did within PROBE_MAX_MS. */
  ms?: number;
}

/** One probe: a click on `search`, then its term's engagement until the click counts. */
async function probe(base: string, collector: string, search: ProbeSearch): Promise<Probe> {
  const path = `/search-terms/${termId(CUSTOMER, 'live', search.phrase)}?since=1d&engagement=true`;
  const sent = performance.now();
  const { status } = await post(
    base,
    `/1/events?X-Algolia-Application-Id=${CUSTOMER}&X-Algolia-API-Key=${collector}`,
    { 'content-type': 'text/plain' },
    JSON.stringify({ events: [click(search.id.replace(/-/g, ''), `probe ${search.phrase}`, 1)] }),
  ).catch(() => ({ status: 0 }));
  while (status === 200 && performance.now() - sent < PROBE_MAX_MS) {
    const next = performance.now() + POLL_MS;
    const clicks = await fetch(`${base}${path}`, { headers: { authorization } }).then(
      async (r) => (r.status === 200 ? ((await r.json()) as { clicks?: number }).clicks : (await r.arrayBuffer(), undefined)),
      () => undefined,
    );
    if (clicks === 1) {
      return { status, ms: performance.now() - sent };
    }
    await intake.sleep(Math.max(0, next - performance.now()));
  }
  return { status };
}

/** A probe every PROBE_EVERY_MS for `seconds`, each on its own search; resolves when each has counted or given up. */
async function probes(base: string, collector: string, searches: ProbeSearch[], seconds: number): Promise<Probe[]> {
  const started: Promise<Probe>[] = [];
  for (const end = performance.now() + seconds * 1000; performance.now() < end; await intake.sleep(PROBE_EVERY_MS)) {
    started.push(probe(base, collector, searches[started.length]));
  }
  return Promise.all(started);
}

/** Runs the clicks benchmark; answers its report (Markdown). */
export async function clicks(): Promise<string> {
  const service = await intake.startService({ COLLECT_PER_MINUTE: '0' });
  const sampler = new InsertSampler(service.base);
  const outcomes: intake.Outcome[] = [];
  const fresh: Probe[][] = [];
  let floor = 0;
  try {
    const collector = await collectorKey(service.base);
    const searches = await probeSearches(service.base);
    floor = await closedLoopMax(service.base, '/health/live', 64, 5);
    const rate = Math.max(1, Math.round(FRACTION * floor));
    intake.log(`floor ${Math.round(floor)}/s; POST /events and POST /1/events at ${rate}/s for ${SECONDS} s each`);
    const credentials = { secret: '', basic: authorization, bearer: '' };
    const loop = { connections: CONNECTIONS, drainMs: DRAIN_MS, ids: false };
    const label = `${FRACTION}x of the floor`;
    outcomes.push(
      await intake.runScenario(
        service.base,
        credentials,
        sampler,
        { name: SEARCHES, scheme: 'basic', rate, seconds: SECONDS, label },
        loop,
      ),
    );
    const clickScenario = (name: string, clickRate: number, clickLabel: string): intake.Scenario => ({
      name,
      scheme: 'basic',
      rate: clickRate,
      seconds: SECONDS,
      label: clickLabel,
      body: (index) => Buffer.from(JSON.stringify({ events: [click(hex(), `${PHRASE_PREFIX} ${name} ${index}`, 1 + (index % 20))] })),
      route: {
        path: `/1/events?X-Algolia-Application-Id=${CUSTOMER}&X-Algolia-API-Key=${collector}`,
        headers: () => ({ 'content-type': 'text/plain' }),
        accepted: (shot) => shot.status === 200,
      },
    });
    // The same rate as the search events, then a shop's busy hour (FRESH_RATE), each with freshness probes.
    for (const [name, clickRate, clickLabel] of [
      [CLICKS, rate, label],
      [CLICKS_LOW, FRESH_RATE, `${FRESH_RATE}/s fixed`],
    ] as const) {
      const [outcome, found] = await Promise.all([
        intake.runScenario(service.base, credentials, sampler, clickScenario(name, clickRate, clickLabel), loop),
        probes(service.base, collector, searches.splice(0, PROBE_SEARCHES / 2), SECONDS),
      ]);
      outcomes.push(outcome);
      fresh.push(found);
    }
  } finally {
    await sampler.stop();
    await intake.stop(service.child);
  }
  const stored = (await intake.countStored({ DATA_DIR: service.dataDir })).phrases;
  const rows = outcomes.map((o) => intake.evaluate(o, stored[o.scenario.name] ?? {}));
  const [searchRow, clickRow] = rows;
  const what = (r: intake.Row) =>
    `${r.outcome.scenario.name === SEARCHES ? 'POST /events, one search event' : 'POST /1/events, one click'}, ${r.outcome.scenario.label}`;
  const storedPerSecond = (r: intake.Row) => r.storedOnce / r.outcome.run.seconds;
  const ratio = storedPerSecond(clickRow) / storedPerSecond(searchRow);
  const freshness = fresh.map((probesOfPhase, i) => {
    const sorted = probesOfPhase.map((p) => p.ms ?? Infinity).sort((a, b) => a - b);
    const found = (n: number) => (Number.isFinite(n) ? n : NaN);
    return {
      phase: rows[i + 1],
      p50: found(quantile(sorted, 0.5)),
      p95: found(quantile(sorted, 0.95)),
      seen: probesOfPhase.filter((p) => p.ms !== undefined).length,
      probes: probesOfPhase.length,
    };
  });

  const figures: Figure[] = [
    {
      name: 'POST /1/events clicks stored per second / POST /events search events stored per second (same rate, same run)',
      value: Math.round(ratio * 100) / 100,
      unit: 'x',
      target: `>= ${RATIO_MIN}x`,
      pass: ratio >= RATIO_MIN,
      note:
        `${count(Math.round(storedPerSecond(clickRow)))}/s clicks beside ${count(Math.round(storedPerSecond(searchRow)))}/s ` +
        `searches, offered ${count(searchRow.outcome.scenario.rate)}/s each`,
    },
    ...rows.map((r): Figure => ({
      name: `${what(r)}: answered`,
      value: round1((r.answered / r.outcome.run.offered) * 100),
      unit: '%',
      target: 'all, p95 <= 250 ms, each stored once',
      pass: r.pass,
      note:
        `p95 ${ms(r.p95)} ms; ${count(r.outcome.accepted.length)} accepted, ${count(r.storedOnce)} stored once, ` +
        `${count(r.lost)} lost, ${count(r.twice)} twice`,
    })),
    ...freshness.map((f): Figure => ({
      name: `click freshness p95 (click sent -> counted in GET /search-terms/{id}), clicks at ${f.phase.outcome.scenario.label}`,
      value: Math.round(f.p95),
      unit: 'ms',
      target: `<= ${FRESHNESS_TARGET_MS} ms`,
      pass: f.p95 <= FRESHNESS_TARGET_MS,
      note: `p50 ${ms(f.p50)} ms, ${f.seen} of ${f.probes} probes counted within ${PROBE_MAX_MS / 1000} s`,
    })),
  ];
  if (!process.env.BENCH_ENTRY) {
    recordFigures('intake-clicks', figures);
  }
  const date = new Date().toISOString().slice(0, 10);
  return [
    '',
    `## Intake: clicks on POST /1/events beside search events on POST /events (embedded, ${date})`,
    '',
    `Floor: GET /health/live ${count(Math.round(floor))} requests/s. One item per request, open loop, ${SECONDS} s each, ` +
      `the same rate; then clicks at ${FRESH_RATE}/s. Click freshness: a probe every ${PROBE_EVERY_MS} ms during each click phase.`,
    '',
    tableRow(
      'scenario',
      'offered /s',
      'answered /s',
      'stored once /s',
      'statuses',
      'p50 ms',
      'p95 ms',
      'accepted / stored once / lost / twice',
      'result',
    ),
    '|---|---|---|---|---|---|---|---|---|',
    ...rows.map((r) =>
      tableRow(
        what(r),
        count(r.outcome.scenario.rate),
        count(r.answeredPerSecond),
        count(Math.round(storedPerSecond(r))),
        r.statuses,
        ms(r.p50),
        ms(r.p95),
        [r.outcome.accepted.length, r.storedOnce, r.lost, r.twice].map(count).join(' / '),
        r.pass ? 'pass' : '**miss**',
      ),
    ),
    '',
    `Clicks stored per second / search events stored per second at the same rate: ${ratio.toFixed(2)}x (target >= ${RATIO_MIN}x).`,
    '',
    ...freshness.map(
      (f) =>
        `Click freshness with clicks at ${f.phase.outcome.scenario.label}: p50 ${ms(f.p50)} ms, p95 ${ms(f.p95)} ms ` +
        `(target <= ${FRESHNESS_TARGET_MS} ms), ${f.seen} of ${f.probes} probes counted.`,
    ),
    '',
  ].join('\n');
}
