/**
 * npm run bench:analytics: the analytics answers (docs/architecture.md) on the query benchmark's data set (10M
 * events over 30 days, Zipf phrases; tmp/bench-query), computed (answer cache off), each as a ratio to the plain
 * list of the same window measured in the same run, requests of the pair alternating so that a noisy machine moves
 * both alike; the same with tz=Europe/Berlin against UTC; the list with engagement=true (clicks and conversions) against
 * the list without; and the memory of the CSV export of every zero-result
 * term, sampled from /proc while it streams.
 */
import { recordFigures, roundAgainst, type Figure } from './figures';
import { quantile, rssMb, tableRow } from './proc';
import { AUTHORIZATION, loadDataSet, startApp, stopApp } from './query-app';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);

async function timed(url: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(url, { headers: { authorization: AUTHORIZATION } });
  await res.arrayBuffer();
  if (res.status !== 200) {
    throw new Error(`${url}: ${res.status}`);
  }
  return performance.now() - started;
}

/** p50 and p95 of `a` and `b`, requested alternately (3 warm-ups each, then ROUNDS each). */
async function pair(a: string, b: string): Promise<{ a: number[]; b: number[] }> {
  for (let i = 0; i < 3; i++) {
    await timed(a);
    await timed(b);
  }
  const times = { a: [] as number[], b: [] as number[] };
  for (let i = 0; i < ROUNDS; i++) {
    times.a.push(await timed(a));
    times.b.push(await timed(b));
  }
  times.a.sort((x, y) => x - y);
  times.b.sort((x, y) => x - y);
  return times;
}

/** Downloads an answer while sampling the app's RSS every 10 ms: rows, MB sent, RSS before and peak during. */
async function download(url: string, pid: number): Promise<{ rows: number; mb: number; before: number; peak: number; ms: number }> {
  await new Promise((r) => setTimeout(r, 500));
  const before = rssMb(pid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 10);
  const started = performance.now();
  const res = await fetch(url, { headers: { authorization: AUTHORIZATION } });
  let bytes = 0;
  let rows = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    for (const byte of chunk) {
      if (byte === 10) {
        rows++;
      }
    }
  }
  clearInterval(sampler);
  peak = Math.max(peak, rssMb(pid));
  return { rows: rows - 1, mb: bytes / 1e6, before, peak, ms: performance.now() - started };
}

async function main(): Promise<void> {
  process.stderr.write('loading (or reusing) the data set\n');
  await loadDataSet({ BENCH_SKIP_RAW: '1' });
  const { app, base } = await startApp('0');
  const rows: string[] = [];
  const figures: Figure[] = [];
  const p50 = (t: number[]) => quantile(t, 0.5);
  const add = (name: string, plain: string, t: { a: number[]; b: number[] }, max: number) => {
    const ratio = p50(t.b) / p50(t.a);
    const target = `<= ${max}x`;
    const pass = ratio <= max;
    figures.push({
      name: `analytics ${name}`,
      value: roundAgainst(ratio, max, true),
      unit: 'x',
      target,
      pass,
      note: `p50 ${p50(t.b).toFixed(1)} ms beside ${plain}: ${p50(t.a).toFixed(1)} ms`,
    });
    rows.push(
      tableRow(
        name,
        plain,
        p50(t.a).toFixed(1),
        p50(t.b).toFixed(1),
        quantile(t.b, 0.95).toFixed(1),
        `${roundAgainst(ratio, max, true)}x`,
        target,
        pass ? 'pass' : '**miss**',
      ),
    );
    process.stderr.write(`${rows[rows.length - 1]}\n`);
    return ratio;
  };
  try {
    const top = (await (
      await fetch(`${base}/search-terms?since=30d&_end=1`, { headers: { authorization: AUTHORIZATION } })
    ).json()) as Array<{
      id: string;
    }>;
    const id = top[0].id;
    const cases = [
      { name: 'compare=previous, 7d', plain: 'since=7d', path: '/search-terms?since=7d&compare=previous', max: 2.2 },
      { name: 'term detail (top term), 30d', plain: 'since=30d', path: `/search-terms/${id}?since=30d`, max: 0.5 },
      { name: 'search-stats, 30d', plain: 'since=30d', path: '/search-stats?since=30d', max: 1 },
    ];
    // Clicks and conversions: the same list with the engagement figures of its terms.
    const engagement = [7, 30].map((days) => ({
      name: `engagement=true, ${days}d`,
      plain: `since=${days}d`,
      path: `/search-terms?since=${days}d&engagement=true`,
      max: 1.5,
    }));
    const utc: number[] = [];
    for (const c of cases) {
      const t = await pair(`${base}/search-terms?${c.plain}`, `${base}${c.path}`);
      utc.push(p50(t.b));
      add(c.name, c.plain, t, c.max);
    }
    for (const [i, c] of cases.entries()) {
      const t = await pair(`${base}${c.path}`, `${base}${c.path}&tz=Europe/Berlin`);
      add(`${c.name}, tz=Europe/Berlin`, `${c.name}, UTC (${utc[i].toFixed(1)} ms earlier)`, t, 1.2);
    }
    for (const c of engagement) {
      const t = await pair(`${base}/search-terms?${c.plain}`, `${base}${c.path}`);
      add(c.name, c.plain, t, c.max);
    }
    recordFigures('analytics', figures);
    // The same query as a JSON page of 1,000 rows beside it: the engine's own work (aggregating every zero-result
    // term) costs memory either way; what the rows cost shows as the difference.
    const exports: string[] = [];
    for (const days of [7, 30]) {
      const query = `${base}/search-terms?since=${days}d&hits=false`;
      const page = await download(`${query}&_end=1000`, app.pid!);
      for (const round of [1, 2, 3]) {
        const m = await download(`${query}&format=csv`, app.pid!);
        exports.push(
          tableRow(
            `${days}d, run ${round}`,
            m.rows.toLocaleString('en'),
            m.mb.toFixed(1),
            Math.round(m.ms),
            Math.round(m.before),
            Math.round(m.peak - m.before),
            Math.round(page.peak - page.before),
          ),
        );
        process.stderr.write(`${exports[exports.length - 1]}\n`);
      }
    }
    const date = new Date().toISOString().slice(0, 10);
    process.stdout.write(
      [
        '',
        `## Analytics benchmark (the query data set, computed: answer cache off, ${ROUNDS} alternating requests per pair, ${date})`,
        '',
        tableRow('request', 'beside', 'beside p50 ms', 'p50 ms', 'p95 ms', 'ratio of p50s', 'target', 'result'),
        '|---|---|---|---|---|---|---|---|',
        ...rows,
        '',
        'CSV export of every zero-result term (format=csv, no _start/_end), RSS of the app sampled every 10 ms:',
        '',
        tableRow('window', 'rows', 'MB sent', 'ms', 'RSS before MB', 'RSS growth MB', 'growth for a JSON page of 1,000 MB'),
        '|---|---|---|---|---|---|---|',
        ...exports,
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
