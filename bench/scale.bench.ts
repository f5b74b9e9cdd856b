/**
 * npm run bench:scale [-- --sizes 1M,10M,100M --dir-prefix tmp/scale- --requests 200 --budget-s 300
 * --timeout-s 900 --raw-runs 10 --answers breakdown,stats]: how the analytics answers grow with the data (issue 31;
 * docs/benchmarks/methods.md, "How cost grows").
 * For each size, the scale data set in <dir-prefix><size> (built by bench:scale-data if missing, reused if present),
 * the engine alone first (tables' rows and disk size, the raw scan of search_events for since=30d), then the built
 * service on it with the answer cache off: each answer requested one at a time, p50 and p95, the service's RSS
 * sampled every 10 ms during the 30-day answers and the CSV export. Each size's result is kept in
 * tmp/scale-results.json; the growth table over every size measured so far goes to stdout and tmp/scale-table.md,
 * the figures to docs/benchmarks/figures.json (`scale`). --answers: only the answers whose keys begin with one of
 * these (the others of the size are left unmeasured).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { ENGAGEMENT_TABLES } from '../apps/query/src/analytics/engagement-cleanup';
import { DIMENSION_VERSIONS } from '../apps/query/src/analytics/dimension-versions';
import { recordFigures, type Figure } from './figures';
import { peakRssMb, quantile, rssMb, tableRow } from './proc';
import { AUTHORIZATION, ROOT, run, runWorker, startApp, stopApp } from './query-app';
import { ALGOLIA_ANSWERS, ALGOLIA_PAIRS, type ScaleAnswer } from './scale-algolia';
import { SIZES } from './scale-data';
import type { ScaleWorkerResult } from './scale-worker';

/**
 * The answers measured. `rollup`: served from the rollups alone, or from the engagement figures computed ahead per
 * hour (the growth target applies to it).
 */
type Answer = ScaleAnswer;

const ANSWERS: Answer[] = [
  { key: 'terms-1d', label: 'search-terms 1d', path: () => '/search-terms?since=1d', days: 1, rollup: true },
  { key: 'terms-7d', label: 'search-terms 7d', path: () => '/search-terms?since=7d', days: 7, rollup: true },
  { key: 'terms-30d', label: 'search-terms 30d', path: () => '/search-terms?since=30d', days: 30, rollup: true },
  { key: 'stats-30d', label: 'search-stats 30d', path: () => '/search-stats?since=30d', days: 30, rollup: true },
  { key: 'detail-30d', label: 'term detail 30d', path: ({ id }) => `/search-terms/${id}?since=30d`, days: 30, rollup: true },
  // format=csv without _start/_end: every zero-result term, up to the export's 100,000 rows (X-Total-Count: all).
  {
    key: 'csv-30d',
    label: 'CSV zero-result 30d',
    path: () => '/search-terms?since=30d&hits=false&format=csv',
    days: 30,
    rollup: true,
    csv: true,
  },
  // Clicks and conversions: the hours computed ahead (ENGAGEMENT_REFRESH_MS; the app is measured after its first pass).
  { key: 'engagement-30d', label: 'engagement 30d', path: () => '/search-terms?since=30d&engagement=true', days: 30, rollup: true },
  // The order by the figures themselves needs those of every phrase, not only the page's.
  { key: 'no-clicks-30d', label: 'sort=no_clicks 30d', path: () => '/search-terms?since=30d&sort=no_clicks', days: 30, rollup: true },
  // The other orders by the figures (issue 47), every search of a term (hits=all), and the whole list as CSV.
  ...(
    [
      ['ctr-30d', 'sort=click_through_rate 30d', 'sort=click_through_rate'],
      ['conversion-rate-30d', 'sort=conversion_rate 30d', 'sort=conversion_rate'],
      ['position-30d', 'sort=average_click_position asc 30d', 'sort=average_click_position&order=asc'],
      ['no-clicks-all-30d', 'sort=no_clicks hits=all 30d', 'sort=no_clicks&hits=all'],
    ] as const
  ).map(([key, label, query]) => ({ key, label, path: () => `/search-terms?since=30d&${query}`, days: 30, rollup: true })),
  {
    key: 'no-clicks-csv-30d',
    label: 'CSV sort=no_clicks 30d',
    path: () => '/search-terms?since=30d&sort=no_clicks&format=csv',
    days: 30,
    rollup: true,
    csv: true,
  },
  // The top term's clicks per position and most clicked objects (computed ahead with the other figures).
  {
    key: 'detail-engagement-30d',
    label: 'term detail engagement 30d',
    path: ({ id }) => `/search-terms/${id}?since=30d&engagement=true`,
    days: 30,
    rollup: true,
  },
  // Filters, users, countries and tags (issue 46): the breakdowns, and the lists and stats they change.
  ...(
    [
      ['breakdown-attributes-30d', 'breakdown filter attributes 30d', 'by=filter_attribute'],
      ['breakdown-values-30d', 'breakdown brand values 30d', 'by=filter_value&attribute=brand'],
      ['breakdown-sets-30d', 'breakdown zero-result filter sets 30d', 'by=filter_set&hits=false'],
      ['breakdown-countries-30d', 'breakdown countries 30d', 'by=country'],
      ['breakdown-tags-30d', 'breakdown tags 30d', 'by=tag'],
    ] as const
  ).map(([key, label, query]) => ({ key, label, path: () => `/search-breakdown?since=30d&${query}`, days: 30, rollup: true })),
  {
    key: 'breakdown-phrase-30d',
    label: "breakdown top term's filter attributes 30d",
    path: ({ search_phrase }) => `/search-breakdown?since=30d&by=filter_attribute&phrase=${encodeURIComponent(search_phrase)}`,
    days: 30,
    rollup: true,
  },
  { key: 'stats-tags-30d', label: 'search-stats tags 30d', path: () => '/search-stats?since=30d&tags=tag-1', days: 30, rollup: true },
  { key: 'terms-tags-30d', label: 'search-terms tags 30d', path: () => '/search-terms?since=30d&tags=tag-1', days: 30, rollup: true },
  { key: 'terms-all-30d', label: 'search-terms hits=all 30d', path: () => '/search-terms?since=30d&hits=all', days: 30, rollup: true },
  {
    key: 'terms-filters-30d',
    label: 'zero-result terms filters=true 30d',
    path: () => '/search-terms?since=30d&hits=false&filters=true',
    days: 30,
    rollup: true,
  },
  { key: 'clicked-objects-30d', label: 'clicked-objects 30d', path: () => '/clicked-objects?since=30d', days: 30, rollup: true },
  // Algolia's Analytics API (issue 48), each route beside the native answer it adapts.
  ...ALGOLIA_ANSWERS,
];

/** Fewest requests of a slow answer (one whose warm-up says --requests would take longer than --budget-s). */
const MIN_REQUESTS = 5;
/** A request slower than this is reported on stderr as it ends. */
const SLOW_MS = 5_000;

interface Timing {
  n: number;
  p50: number;
  p95: number;
  /** The service's peak RSS (MB) sampled during this answer's timed requests. */
  peakRssMb?: number;
  /** Why the answer was not measured: the service refused its first request (n is 0). */
  failed?: string;
}

interface SizeResult {
  size: string;
  events: number;
  measuredAt: string;
  newest: number;
  requests: number;
  answers: Record<string, Timing>;
  /** The raw scan with the engine's threads, and in a lane with an analytics query's threads (`laneThreads`). */
  raw: Timing;
  rawLane?: Timing;
  laneThreads?: number;
  tables: ScaleWorkerResult['tables'];
  derived: string[];
  rss: { csvGrowthMb: number; hwmMb: number };
  csv: { rows: number; total: number; mb: number };
  /**
   * The app's first passes on the set (computing its engagement figures and dimensions ahead: on a set without them,
   * the upgrade's work): seconds from the app answering, and the process's VmHWM at their end.
   */
  firstPass?: { seconds: number; peakRssMb: number };
}

interface Options {
  sizes: string[];
  dirPrefix: string;
  requests: number;
  budgetMs: number;
  timeoutMs: number;
  rawRuns: number;
  /** Prefixes of the keys of the answers measured (empty: all). */
  answers: string[];
}

const RESULTS_FILE = path.join(ROOT, 'tmp', 'scale-results.json');
const TABLE_FILE = path.join(ROOT, 'tmp', 'scale-table.md');

function options(args: string[]): Options {
  const value = (name: string, fallback: string) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? (args[i + 1] ?? '') : fallback;
  };
  const positive = (name: string, fallback: string) => {
    const n = Number(value(name, fallback));
    if (!Number.isSafeInteger(n) || n <= 0) {
      throw new Error(`--${name} must be a whole number above 0`);
    }
    return n;
  };
  const sizes = value('sizes', '1M,10M,100M')
    .split(',')
    .map((s) => s.trim().toUpperCase());
  const unknown = sizes.filter((s) => !(s in SIZES));
  if (unknown.length > 0 || sizes.length === 0) {
    throw new Error(`--sizes: ${unknown.join(', ')} unknown; choose from ${Object.keys(SIZES).join(', ')}`);
  }
  return {
    sizes,
    dirPrefix: value('dir-prefix', 'tmp/scale-'),
    requests: positive('requests', '200'),
    budgetMs: positive('budget-s', '300') * 1000,
    timeoutMs: positive('timeout-s', '900') * 1000,
    rawRuns: positive('raw-runs', '10'),
    answers: value('answers', '')
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean),
  };
}

const log = (line: string) => process.stderr.write(`${line}\n`);
const timing = (sorted: number[]): Timing => ({ n: sorted.length, p50: quantile(sorted, 0.5), p95: quantile(sorted, 0.95) });

/** Samples a process's RSS every 10 ms until stopped; returns the peak in MB. */
function sampleRss(pid: number): () => number {
  let peak = rssMb(pid);
  const timer = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 10);
  return () => {
    clearInterval(timer);
    return Math.max(peak, rssMb(pid));
  };
}

/** One request read to its end: its time, bytes and lines, and X-Total-Count. Fails loudly on a status or time-out. */
async function request(url: string, timeoutMs: number): Promise<{ ms: number; bytes: number; lines: number; total: number }> {
  const started = performance.now();
  let res: Response;
  let bytes = 0;
  let lines = 0;
  try {
    res = await fetch(url, { headers: { authorization: AUTHORIZATION }, signal: AbortSignal.timeout(timeoutMs) });
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.length;
      for (const byte of chunk) {
        lines += byte === 10 ? 1 : 0;
      }
    }
  } catch (err) {
    if ((err as Error).name === 'TimeoutError') {
      throw new Error(`${url}: no complete answer within ${timeoutMs / 1000} s (--timeout-s)`);
    }
    throw err;
  }
  const ms = performance.now() - started;
  if (res.status !== 200) {
    throw new Error(`${url}: status ${res.status} after ${(ms / 1000).toFixed(1)} s`);
  }
  if (ms > SLOW_MS) {
    log(`  ${url}: ${(ms / 1000).toFixed(1)} s`);
  }
  return { ms, bytes, lines, total: Number(res.headers.get('x-total-count') ?? NaN) };
}

/** The data set of a size: built if its directory holds no searches, else reused (it must hold the size's searches). */
async function dataSet(size: string, dir: string, o: Options): Promise<ScaleWorkerResult> {
  const worker = () =>
    runWorker<ScaleWorkerResult>(path.join(__dirname, 'scale-worker.js'), { DATA_DIR: dir, RAW_RUNS: String(o.rawRuns) });
  let found = existsSync(dir) ? await worker() : undefined;
  if (!found || found.events === 0) {
    const end = new Date(Math.floor(Date.now() / 60_000) * 60_000).toISOString();
    log(`${size}: building the data set in ${dir}, --end ${end}`);
    const generator = run(path.join(__dirname, 'scale-data.js'), {}, ['--size', size, '--dir', dir, '--end', end]);
    generator.stdout.pipe(process.stderr);
    const code = await new Promise((r) => generator.once('exit', r));
    if (code !== 0) {
      throw new Error(`bench:scale-data --size ${size} failed (exit ${String(code)})`);
    }
    found = await worker();
  } else {
    const hours = (Date.now() - found.newest) / 3_600_000;
    const newest = new Date(found.newest).toISOString();
    log(`${size}: reusing ${dir}: newest search ${newest} (its --end 10 minutes later), ${hours.toFixed(1)} h ago`);
    if (hours > 1) {
      log(`  the windows count back from now: each holds fewer of the set's searches than with a fresh set`);
    }
  }
  if (found.events !== SIZES[size]) {
    throw new Error(`${dir} holds ${found.events} searches, not ${SIZES[size]}: delete it or choose another --dir-prefix`);
  }
  return found;
}

/** The directory of a size's data set: `<dir-prefix><size>`. */
const setDir = (size: string, o: Options) => path.resolve(ROOT, `${o.dirPrefix}${size.toLowerCase()}`);

async function measureSize(size: string, o: Options): Promise<SizeResult> {
  const dir = setDir(size, o);
  const set = await dataSet(size, dir, o);
  log(
    `${size}: raw scan p50 ${quantile(set.raw, 0.5).toFixed(1)} ms, in an analytics lane (${set.laneThreads} threads) ` +
      `${quantile(set.rawLane, 0.5).toFixed(1)} ms (${set.raw.length} runs each)`,
  );
  const { app, base, firstPassSeconds, firstPassPeakRssMb } = await startApp('0', { DATA_DIR: dir });
  log(`${size}: first passes ${firstPassSeconds.toFixed(0)} s, VmHWM ${firstPassPeakRssMb} MB`);
  const pid = app.pid!;
  let result: SizeResult;
  try {
    const [top] = (await (
      await fetch(`${base}/search-terms?since=30d&_end=1`, { headers: { authorization: AUTHORIZATION } })
    ).json()) as Array<{ id: string; search_phrase: string }>;
    const answers: Record<string, Timing> = {};
    let csvGrowthMb = 0;
    const csv = { rows: 0, total: 0, mb: 0 };
    for (const a of ANSWERS.filter((x) => o.answers.length === 0 || o.answers.some((k) => x.key.startsWith(k)))) {
      const url = `${base}${a.path(top)}`;
      // Warm-ups: two, or only the first when it is slow; it also says how many requests fit the budget.
      let first: Awaited<ReturnType<typeof request>>;
      try {
        first = await request(url, o.timeoutMs);
      } catch (err) {
        // An answer the service refuses with a 503 (more memory than storage allows) is reported, not measured;
        // anything else (a time-out, a 500, a service that died) stops the run.
        const message = (err as Error).message;
        if (!message.startsWith(`${url}: status 503 `)) {
          throw err;
        }
        const failed = message.slice(url.length + 2);
        log(`${size} ${a.label}: not measured, ${failed}`);
        answers[a.key] = { n: 0, p50: NaN, p95: NaN, peakRssMb: rssMb(pid), failed };
        continue;
      }
      if (first.ms < 2_000) {
        await request(url, o.timeoutMs);
      }
      const n =
        first.ms * o.requests > o.budgetMs ? Math.min(o.requests, Math.max(MIN_REQUESTS, Math.floor(o.budgetMs / first.ms))) : o.requests;
      if (n < o.requests) {
        const took = (first.ms / 1000).toFixed(1);
        log(`  ${a.label}: ${n} requests, not ${o.requests} (the first took ${took} s; --budget-s ${o.budgetMs / 1000})`);
      }
      const times: number[] = [];
      let peakRss = 0;
      for (let i = 0; i < n; i++) {
        const before = rssMb(pid);
        const stop = sampleRss(pid);
        const r = await request(url, o.timeoutMs);
        const peak = stop();
        times.push(r.ms);
        peakRss = Math.max(peakRss, peak);
        // The zero-result export's memory and size (the columns of the tables below).
        if (a.key === 'csv-30d') {
          csvGrowthMb = Math.max(csvGrowthMb, peak - before);
          Object.assign(csv, { rows: r.lines - 1, total: r.total, mb: r.bytes / 1e6 });
        }
      }
      answers[a.key] = { ...timing(times.sort((x, y) => x - y)), peakRssMb: peakRss };
      log(`${size} ${a.label}: p50 ${answers[a.key].p50.toFixed(1)} ms, p95 ${answers[a.key].p95.toFixed(1)} ms (${n} requests)`);
    }
    result = {
      size,
      events: set.events,
      measuredAt: new Date().toISOString(),
      newest: set.newest,
      requests: o.requests,
      answers,
      raw: timing(set.raw),
      rawLane: timing(set.rawLane),
      laneThreads: set.laneThreads,
      tables: set.tables,
      derived: set.derived,
      rss: { csvGrowthMb, hwmMb: peakRssMb(pid) },
      csv,
      firstPass: { seconds: firstPassSeconds, peakRssMb: firstPassPeakRssMb },
    };
  } finally {
    await stopApp(app);
  }
  // The tables again, with the rows the passes computed (the dimension and engagement tables).
  const after = await runWorker<ScaleWorkerResult>(path.join(__dirname, 'scale-worker.js'), { DATA_DIR: dir, RAW_RUNS: '0' });
  return { ...result, tables: after.tables };
}

const ms = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(1));
const mb = (n: number) => n.toFixed(1);

/** The growth of `b` over `a` (sizes by their searches): time ratio of the p50s and its exponent. */
function growth(a: SizeResult, b: SizeResult, p50: (r: SizeResult) => number): { ratio: number; exponent: number } {
  const ratio = p50(b) / p50(a);
  return { ratio, exponent: Math.log(ratio) / Math.log(b.events / a.events) };
}

/** The growth table (Markdown) over every size measured so far, and the figures with the issue's targets. */
function report(results: SizeResult[], thisRun: string[]): { markdown: string; figures: Figure[] } {
  const figures: Figure[] = [];
  const bySize = new Map(results.map((r) => [r.size, r]));
  const lines: string[] = [
    `## How cost grows (issue 31): npm run bench:scale`,
    '',
    'Answer cache off (SEARCH_TERMS_CACHE_MS=0), one request at a time (closed loop), times in ms as p50 / p95; raw: the ' +
      'same answer as search-terms 30d counted per phrase from search_events, timed inside the engine before the ' +
      "service started, with the engine's threads and in a lane with the threads the service gives each analytics " +
      'query (ANALYTICS_CONCURRENCY 2: 1 thread on 2 cores), as the answers ran. CSV: every zero-result term ' +
      '(format=csv, no _start/_end).',
    '',
    `Measured: ${results
      .map((r) => `${r.size} ${r.measuredAt.slice(0, 16).replace('T', ' ')}${thisRun.includes(r.size) ? '' : ' (earlier run)'}`)
      .join(', ')}.`,
    '',
    tableRow('answer', ...results.map((r) => `${r.size} p50 / p95`)),
    `|---|${'---|'.repeat(results.length)}`,
  ];
  const reduced: string[] = [];
  const cell = (r: SizeResult, a: Answer) => {
    const t = r.answers[a.key];
    if (!t) {
      return 'not measured';
    }
    if (t.failed) {
      return `failed: ${t.failed}`;
    }
    if (t.n < r.requests) {
      reduced.push(`${r.size} ${a.label}: ${t.n} requests`);
    }
    return `${ms(t.p50)} / ${ms(t.p95)}${t.n < r.requests ? '*' : ''}`;
  };
  lines.push(
    ...ANSWERS.map((a) => tableRow(a.label, ...results.map((r) => cell(r, a)))),
    tableRow('raw 30d p50', ...results.map((r) => ms(r.raw.p50))),
    tableRow('search-terms 30d p50 / raw p50', ...results.map((r) => `${((r.answers['terms-30d']?.p50 ?? NaN) / r.raw.p50).toFixed(3)}x`)),
    tableRow('raw 30d p50, lane threads', ...results.map((r) => (r.rawLane ? `${ms(r.rawLane.p50)} (${r.laneThreads})` : '-'))),
    tableRow(
      'search-terms 30d p50 / that raw p50',
      ...results.map((r) => (r.rawLane ? `${((r.answers['terms-30d']?.p50 ?? NaN) / r.rawLane.p50).toFixed(3)}x` : '-')),
    ),
  );
  for (const r of results) {
    for (const a of ANSWERS.filter((x) => r.answers[x.key] && !r.answers[x.key].failed)) {
      const t = r.answers[a.key];
      figures.push({ name: `${r.size} ${a.label} p50`, value: Math.round(t.p50 * 10) / 10, unit: 'ms', target: '-', pass: null });
      // The p95 of a 30-day answer at 100M is a target's figure (below).
      if (r.size !== '100M' || a.days !== 30) {
        const note = t.n < r.requests ? `${t.n} requests` : undefined;
        figures.push({ name: `${r.size} ${a.label} p95`, value: Math.round(t.p95 * 10) / 10, unit: 'ms', target: '-', pass: null, note });
      }
    }
    figures.push({ name: `${r.size} raw scan 30d p50`, value: Math.round(r.raw.p50 * 10) / 10, unit: 'ms', target: '-', pass: null });
    if (r.rawLane) {
      const note = `${r.laneThreads} thread${r.laneThreads === 1 ? '' : 's'}, as the answers`;
      figures.push({
        name: `${r.size} raw scan 30d p50, lane`,
        value: Math.round(r.rawLane.p50 * 10) / 10,
        unit: 'ms',
        target: '-',
        pass: null,
        note,
      });
    }
  }
  lines.push(
    '',
    `Requests per answer: ${results.map((r) => `${r.size} ${r.requests}`).join(', ')} (after warm-ups)` +
      (reduced.length > 0 ? `; * fewer, as the answer was slow (--budget-s): ${reduced.join('; ')}.` : '.'),
  );

  // Growth between consecutive sizes; the issue's target is on 10M -> 100M.
  const pairs = results.slice(1).map((b, i) => [results[i], b] as const);
  if (pairs.length > 0) {
    lines.push(
      '',
      'Growth of the p50 (time ratio, and exponent log(time ratio) / log(data ratio)):',
      '',
      tableRow('answer', 'rollups only', ...pairs.map(([a, b]) => `${a.size} -> ${b.size}`)),
      `|---|---|${'---|'.repeat(pairs.length)}`,
    );
    const rows: Array<{ label: string; rollup: boolean | null; p50: (r: SizeResult) => number }> = [
      ...ANSWERS.map((a) => ({ label: a.label, rollup: a.rollup, p50: (r: SizeResult) => r.answers[a.key]?.p50 ?? NaN })),
      { label: 'raw scan 30d', rollup: null, p50: (r: SizeResult) => r.raw.p50 },
      { label: 'raw scan 30d, lane threads', rollup: null, p50: (r: SizeResult) => r.rawLane?.p50 ?? NaN },
    ];
    for (const row of rows) {
      const cells = pairs.map(([a, b]) => {
        const g = growth(a, b, row.p50);
        return Number.isNaN(g.ratio) ? '-' : `${g.ratio.toFixed(2)}x (exponent ${g.exponent.toFixed(2)})`;
      });
      lines.push(tableRow(row.label, row.rollup === null ? '-' : row.rollup ? 'yes' : 'no', ...cells));
    }
  }

  // The issue's targets: a row each (not run when its sizes were not measured), and a figure when measured.
  const targets: string[][] = [];
  const target = (name: string, size: string, value: number | undefined, unit: 'ms' | 'x', max: number, note?: string) => {
    const limit = unit === 'x' ? `<= ${max}x` : `<= ${max} ms`;
    if (value === undefined) {
      targets.push([name, size, 'not run', limit, 'not run']);
      return;
    }
    if (Number.isNaN(value)) {
      targets.push([name, size, `failed${note ? `: ${note}` : ''}`, limit, '**miss**']);
      figures.push({ name: `${size} ${name}`, value: NaN, unit, target: limit, pass: false, note: note ?? 'failed' });
      return;
    }
    targets.push([name, size, unit === 'x' ? `${value.toFixed(3)}x` : `${value.toFixed(1)} ms`, limit, value <= max ? 'pass' : '**miss**']);
    figures.push({ name: `${size} ${name}`, value: Math.round(value * 1000) / 1000, unit, target: limit, pass: value <= max, note });
  };
  const big = bySize.get('100M');
  // Every 30-day answer, and each of Algolia's routes (/2/status reads the newest search, not a window).
  for (const a of ANSWERS.filter((x) => (x.days === 30 || x.key.startsWith('algolia-')) && !x.reference)) {
    target(`${a.label} p95`, '100M', big?.answers[a.key]?.p95, 'ms', 1000, big?.answers[a.key]?.failed);
  }
  // Each route of Algolia's Analytics API against the native answer it adapts (issue 48: within 1.2x).
  for (const pair of ALGOLIA_PAIRS) {
    const route = big?.answers[pair.key]?.p50;
    const native = big?.answers[pair.native]?.p50;
    const note = route !== undefined && native !== undefined ? `p50 ${ms(route)} ms, native ${ms(native)} ms` : undefined;
    target(
      `${pair.label} p50 / native p50`,
      '100M',
      route === undefined || native === undefined ? undefined : route / native,
      'x',
      1.2,
      note,
    );
  }
  for (const size of Object.keys(SIZES)) {
    const r = bySize.get(size);
    // Against the raw scan with the same threads as the answer (the fair comparison), and with the engine's threads.
    for (const [label, raw] of [
      ['raw p50, lane threads', r?.rawLane],
      ["raw p50, engine's threads", r?.raw],
    ] as const) {
      if (r && !raw) {
        continue;
      }
      const ratio = r && raw ? (r.answers['terms-30d']?.p50 ?? NaN) / raw.p50 : undefined;
      const note = r && raw ? `p50 ${ms(r.answers['terms-30d']?.p50 ?? NaN)} ms, raw ${ms(raw.p50)} ms` : undefined;
      target(`search-terms 30d p50 / ${label}`, size, ratio, 'x', 0.1, note);
      if (size === '10M') {
        // Issue 16's target at 10M, named apart: a figure's name is its key in docs/benchmarks/figures.json.
        target(`search-terms 30d p50 / ${label}, issue 16's target`, size, ratio, 'x', 0.2, note);
      }
    }
  }
  // The whole relevance to-do list as CSV against one page of it (issue 47: at most 2x).
  const csvRatio = big ? (big.answers['no-clicks-csv-30d']?.p95 ?? NaN) / (big.answers['no-clicks-30d']?.p95 ?? NaN) : undefined;
  target('CSV sort=no_clicks 30d p95 / sort=no_clicks 30d p95', '100M', csvRatio, 'x', 2);
  const ten = bySize.get('10M');
  for (const a of ANSWERS.filter((x) => x.rollup && !x.reference)) {
    const g = ten && big ? growth(ten, big, (r) => r.answers[a.key]?.p50 ?? NaN) : undefined;
    target(`${a.label} p50 growth`, '10M -> 100M', g?.ratio, 'x', 4, g && `exponent ${g.exponent.toFixed(2)}`);
  }
  // The memory of a CSV export may grow with the data at most as 2x from 10M to 100M.
  const csvGrowth = ten && big ? big.rss.csvGrowthMb / ten.rss.csvGrowthMb : undefined;
  const csvNote = ten && big ? `${Math.round(big.rss.csvGrowthMb)} MB against ${Math.round(ten.rss.csvGrowthMb)} MB` : undefined;
  target('RSS growth during one CSV export, 100M / 10M', '10M -> 100M', csvGrowth, 'x', 2, csvNote);
  lines.push(
    '',
    "The issue's targets:",
    '',
    tableRow('target', 'size', 'value', 'limit', 'result'),
    '|---|---|---|---|---|',
    ...targets.map((t) => tableRow(...t)),
  );

  // Memory of the service, and the tables.
  const days30 = ANSWERS.filter((x) => x.days === 30);
  const peak30d = (r: SizeResult) => Math.max(...days30.map((x) => r.answers[x.key]?.peakRssMb ?? 0));
  lines.push(
    '',
    'Service process (the engine is in it): peak RSS (MB) sampled every 10 ms during the timed requests of each 30-day answer, ' +
      'the largest growth over the RSS just before one CSV export, and VmHWM (its peak since it started):',
    '',
    tableRow('size', ...days30.map((x) => x.label), 'RSS growth in one CSV export', 'VmHWM', 'CSV rows (of X-Total-Count)', 'CSV MB'),
    `|---|${'---|'.repeat(days30.length + 4)}`,
    ...results.map((r) =>
      tableRow(
        r.size,
        ...days30.map((x) => Math.round(r.answers[x.key]?.peakRssMb ?? NaN)),
        Math.round(r.rss.csvGrowthMb),
        r.rss.hwmMb,
        `${r.csv.rows.toLocaleString('en')} (of ${r.csv.total.toLocaleString('en')})`,
        mb(r.csv.mb),
      ),
    ),
  );
  const passed = results.filter((r) => r.firstPass);
  lines.push(
    '',
    "The app's first passes on the set (its engagement figures and dimensions computed ahead for the 30 days: on a set " +
      'without them, the work of the upgrade), from the app answering to their end, and its VmHWM then:',
    '',
    tableRow('size', 'first passes (s)', 'VmHWM (MB)'),
    '|---|---|---|',
    ...passed.map((r) => tableRow(r.size, Math.round(r.firstPass!.seconds), r.firstPass!.peakRssMb)),
  );
  for (const r of passed) {
    figures.push(
      { name: `${r.size} first passes`, value: Math.round(r.firstPass!.seconds), unit: 's', target: '-', pass: null },
      { name: `${r.size} VmHWM after the first passes`, value: r.firstPass!.peakRssMb, unit: 'MB', target: '-', pass: null },
    );
  }
  for (const r of results) {
    figures.push(
      { name: `${r.size} peak RSS during the 30-day answers`, value: Math.round(peak30d(r)), unit: 'MB', target: '-', pass: null },
      {
        name: `${r.size} RSS growth during one CSV export`,
        value: Math.round(r.rss.csvGrowthMb),
        unit: 'MB',
        target: '-',
        pass: null,
        note: `${r.csv.rows} rows`,
      },
    );
  }
  const passes = [ENGAGEMENT_TABLES, DIMENSION_VERSIONS].flatMap((v) => v.computed);
  const shown = (r: SizeResult, name: string) => ['search_events', 'interactions', ...r.derived, ...passes].includes(name);
  const tables = [...new Set(results.flatMap((r) => r.tables.filter((t) => shown(r, t.table)).map((t) => t.table)))];
  lines.push(
    '',
    'Tables: rows per day (rows / 30) and MB on disk (system.parts, after the merges) of search_events, interactions, ' +
      'each table a materialised view over them fills (the rollups and search_ids) and the tables the passes compute ' +
      '(after the measured answers):',
    '',
    tableRow('table', ...results.flatMap((r) => [`${r.size} rows/day`, `${r.size} MB`])),
    `|---|${'---|---|'.repeat(results.length)}`,
    ...tables.map((name) =>
      tableRow(
        name,
        ...results.flatMap((r) => {
          const t = r.tables.find((x) => x.table === name);
          return t ? [Math.round(t.rows / 30).toLocaleString('en'), mb(t.bytes / 1e6)] : ['-', '-'];
        }),
      ),
    ),
    tableRow(
      'all tables: bytes per search',
      ...results.flatMap((r) => ['', Math.round(totalBytes(r.tables) / r.events).toLocaleString('en')]),
    ),
    '',
  );
  for (const r of results) {
    const value = Math.round(totalBytes(r.tables) / r.events);
    figures.push({ name: `${r.size} storage per search, all tables`, value, unit: 'bytes', target: '-', pass: null });
  }
  return { markdown: lines.join('\n'), figures };
}

const totalBytes = (tables: ScaleWorkerResult['tables']) => tables.reduce((sum, t) => sum + t.bytes, 0);

/**
 * --upgrade: the upgrade of each size's set written by an earlier release (its directory must exist): the pending
 * migrations' time and the peak RSS, and the storage before and after them. Recorded as `scale-upgrade`.
 */
async function upgrade(o: Options): Promise<void> {
  const lines = [
    '## Upgrade of a data set written by an earlier release: npm run bench:scale -- --upgrade',
    '',
    tableRow('size', 'migrations', 'time', 'RSS before / peak', 'bytes per search before', 'after', 'new tables (rows, MB)'),
    '|---|---|---|---|---|---|---|',
  ];
  const figures: Figure[] = [];
  for (const size of o.sizes) {
    const dir = setDir(size, o);
    if (!existsSync(dir)) {
      throw new Error(`${dir} does not exist: build it with bench:scale-data of an earlier release`);
    }
    log(`${size}: upgrading ${dir}`);
    const set = await runWorker<ScaleWorkerResult>(path.join(__dirname, 'scale-worker.js'), { DATA_DIR: dir, RAW_RUNS: '0' });
    const u = set.upgrade;
    if (!u) {
      throw new Error(`${dir} needed no migration: it was written by this release (or by none)`);
    }
    const added = set.tables.filter((t) => !u.tablesBefore.some((b) => b.table === t.table) && t.rows > 0);
    const [before, after] = [totalBytes(u.tablesBefore) / set.events, totalBytes(set.tables) / set.events];
    lines.push(
      tableRow(
        size,
        u.migrations.join(', '),
        `${u.seconds.toFixed(1)} s`,
        `${u.rssBeforeMb} / ${u.peakRssMb} MB`,
        Math.round(before),
        Math.round(after),
        added.map((t) => `${t.table} (${t.rows.toLocaleString('en')}, ${mb(t.bytes / 1e6)})`).join(', '),
      ),
    );
    figures.push(
      {
        name: `${size} upgrade time`,
        value: Math.round(u.seconds * 10) / 10,
        unit: 's',
        target: 'reported',
        pass: null,
        note: u.migrations.join(', '),
      },
      {
        name: `${size} upgrade peak RSS`,
        value: u.peakRssMb,
        unit: 'MB',
        target: 'reported',
        pass: null,
        note: `${u.rssBeforeMb} MB before`,
      },
      { name: `${size} storage per search before the upgrade`, value: Math.round(before), unit: 'bytes', target: 'reported', pass: null },
    );
  }
  recordFigures('scale-upgrade', figures);
  process.stdout.write(`\n${lines.join('\n')}\n`);
}

async function main(): Promise<void> {
  const o = options(process.argv.slice(2));
  if (process.argv.includes('--upgrade')) {
    await upgrade(o);
    process.exit(0);
  }
  const stored: Record<string, SizeResult> = existsSync(RESULTS_FILE)
    ? (JSON.parse(readFileSync(RESULTS_FILE, 'utf8')) as Record<string, SizeResult>)
    : {};
  for (const size of o.sizes) {
    const measured = await measureSize(size, o);
    // With --answers, the size's answers not measured this time stay as an earlier run measured them.
    stored[size] =
      o.answers.length > 0 && stored[size] ? { ...measured, answers: { ...stored[size].answers, ...measured.answers } } : measured;
    mkdirSync(path.dirname(RESULTS_FILE), { recursive: true });
    writeFileSync(RESULTS_FILE, JSON.stringify(stored, null, 2));
  }
  const results = Object.values(stored).sort((a, b) => a.events - b.events);
  const { markdown, figures } = report(results, o.sizes);
  writeFileSync(TABLE_FILE, markdown);
  recordFigures('scale', figures);
  process.stdout.write(`\n${markdown}`);
  process.exit(0);
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exit(1);
});
