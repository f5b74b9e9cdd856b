/** The query app of the query benchmarks, on the benchmark data set (tmp/bench-query, loaded by query-worker.ts). */
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { peakRssMb } from './proc';

export const ROOT = path.resolve(__dirname, '../..');
export const DATA_DIR = process.env.BENCH_DATA_DIR ?? path.join(ROOT, 'tmp', 'bench-query');
const BASIC = 'bench:bench-password-1';
export const AUTHORIZATION = `Basic ${Buffer.from(BASIC).toString('base64')}`;
const env = {
  PATH: process.env.PATH ?? '',
  HOME: process.env.HOME ?? '',
  DATA_DIR,
  CLICKHOUSE_DATABASE: 'bench',
  SERVICE_BASIC_AUTH: BASIC,
  RATE_LIMIT_PER_MINUTE: '0',
  BENCH_EVENTS: process.env.BENCH_EVENTS ?? '10000000',
};

export function run(script: string, extraEnv: Record<string, string> = {}, args: string[] = []) {
  return spawn(process.execPath, [script, ...args], { env: { ...env, ...extraEnv }, stdio: ['ignore', 'pipe', 'inherit'] });
}

/** Runs a worker script (with the benchmark's environment) to its end and returns what it printed as `RESULT {json}`. */
export async function runWorker<T>(script: string, extraEnv: Record<string, string> = {}): Promise<T> {
  const worker = run(script, extraEnv);
  let out = '';
  worker.stdout.on('data', (c: Buffer) => (out += c.toString()));
  const code = await new Promise((r) => worker.once('exit', r));
  const result = /RESULT (.*)/.exec(out);
  if (code !== 0 || !result) {
    throw new Error(`${path.basename(script)} failed (exit ${String(code)})`);
  }
  return JSON.parse(result[1]) as T;
}

/** Loads (or reuses) the data set; the worker also times raw scans unless BENCH_SKIP_RAW is set. Returns its RESULT. */
export function loadDataSet<T>(extraEnv: Record<string, string> = {}): Promise<T> {
  return runWorker<T>(path.join(__dirname, 'query-worker.js'), extraEnv);
}

/**
 * Starts the query app and waits until it answers, and until its first passes computing the engagement figures and
 * the dimensions ahead (ENGAGEMENT_REFRESH_MS) are complete: the answers are then measured as a running service gives
 * them. `firstPassSeconds`: from the app answering to the end of both first passes (on a data set without rows
 * computed ahead, the upgrade's work), then its VmHWM (`firstPassPeakRssMb`; the engine runs in the process).
 */
export async function startApp(
  cacheMs: string,
  extraEnv: Record<string, string> = {},
  onServing?: (base: string) => Promise<void>,
): Promise<{ app: ReturnType<typeof run>; base: string; firstPassSeconds: number; firstPassPeakRssMb: number }> {
  const port = 3900 + Math.floor(Math.random() * 90);
  const launched = Date.now();
  const app = run(path.join(ROOT, 'dist/apps/standalone/src/main.js'), { PORT: String(port), SEARCH_TERMS_CACHE_MS: cacheMs, ...extraEnv });
  app.stdout.resume();
  const base = `http://127.0.0.1:${port}`;
  const refresh = extraEnv.ENGAGEMENT_REFRESH_MS !== '0';
  // Up to 5 minutes to start (a first start backfills new tables from the data set), 120 for the first passes (the
  // dimension pass over 100M events takes over an hour).
  let serving = false;
  let servingAt = 0;
  for (let i = 0; i < 3000 + 72_000; i++) {
    try {
      const healthy = (await fetch(`${base}/health`)).ok;
      if (healthy && !serving) {
        serving = true;
        servingAt = performance.now();
        await onServing?.(base);
      }
      if (healthy && (!refresh || (await lastEngagementPass(base)).at >= launched / 1000)) {
        const firstPassSeconds = (performance.now() - servingAt) / 1000;
        const firstPassPeakRssMb = peakRssMb(app.pid!);
        if (refresh) {
          await settled(base);
        }
        return { app, base, firstPassSeconds, firstPassPeakRssMb };
      }
    } catch {
      /* starting */
    }
    if (
      i === 3000 &&
      !(await fetch(`${base}/health`)
        .then((r) => r.ok)
        .catch(() => false))
    ) {
      break;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  // Not left running on its own (a first pass would go on using the machine); killed, as a graceful stop waits for
  // the pass running.
  app.kill('SIGKILL');
  throw new Error('the app did not start, or its first passes did not end');
}

/**
 * From /metrics: when the last complete passes began, the engagement pass and the dimension pass beside it (`at`, s,
 * the older of the two; 0: not both yet), and the hours both computed so far.
 */
async function lastEngagementPass(base: string): Promise<{ at: number; hours: number }> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const metric = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? 0);
  return {
    at: Math.min(metric('engagement_refresh_last_pass_seconds'), metric('dimension_refresh_last_pass_seconds')),
    hours: metric('engagement_refresh_hours_total') + metric('dimension_refresh_hours_total'),
  };
}

/**
 * Waits (up to 30 minutes) for a pass that computes at most a day of hours: the steady state. Right after a data set
 * was loaded, each pass computes every hour again while the load's changes are within the passes' margin (5 minutes
 * before the previous pass), and measuring then would measure those passes too.
 */
async function settled(base: string): Promise<void> {
  let last = await lastEngagementPass(base);
  for (const end = Date.now() + 30 * 60_000; Date.now() < end;) {
    await new Promise((r) => setTimeout(r, 1000));
    const now = await lastEngagementPass(base);
    if (now.at !== last.at) {
      if (now.hours - last.hours <= 24) {
        return;
      }
      last = now;
    }
  }
  throw new Error('the engagement passes did not settle within 30 minutes');
}

export async function stopApp(app: ReturnType<typeof run>): Promise<void> {
  app.kill('SIGTERM');
  await new Promise((r) => app.once('exit', r));
}
