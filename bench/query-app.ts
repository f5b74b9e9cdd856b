/** The query app of the query benchmarks, on the benchmark data set (tmp/bench-query, loaded by query-worker.ts). */
import { spawn } from 'node:child_process';
import * as path from 'node:path';

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

export function run(script: string, extraEnv: Record<string, string> = {}) {
  return spawn(process.execPath, [script], { env: { ...env, ...extraEnv }, stdio: ['ignore', 'pipe', 'inherit'] });
}

/** Loads (or reuses) the data set; the worker also times raw scans unless BENCH_SKIP_RAW is set. Returns its RESULT. */
export async function loadDataSet<T>(extraEnv: Record<string, string> = {}): Promise<T> {
  const worker = run(path.join(__dirname, 'query-worker.js'), extraEnv);
  let out = '';
  worker.stdout.on('data', (c: Buffer) => (out += c.toString()));
  const code = await new Promise((r) => worker.once('exit', r));
  const result = /RESULT (.*)/.exec(out);
  if (code !== 0 || !result) {
    throw new Error(`the data set worker failed (exit ${String(code)})`);
  }
  return JSON.parse(result[1]) as T;
}

export async function startApp(
  cacheMs: string,
  extraEnv: Record<string, string> = {},
): Promise<{ app: ReturnType<typeof run>; base: string }> {
  const port = 3900 + Math.floor(Math.random() * 90);
  const app = run(path.join(ROOT, 'dist/apps/standalone/src/main.js'), { PORT: String(port), SEARCH_TERMS_CACHE_MS: cacheMs, ...extraEnv });
  app.stdout.resume();
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 3000; i++) {
    try {
      if ((await fetch(`${base}/health`)).ok) {
        return { app, base };
      }
    } catch {
      /* starting (a first start backfills new rollups from the data set) */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the app did not start');
}

export async function stopApp(app: ReturnType<typeof run>): Promise<void> {
  app.kill('SIGTERM');
  await new Promise((r) => app.once('exit', r));
}
