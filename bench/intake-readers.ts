/**
 * The analytics clients of the intake benchmark's mixed mode (bench/intake-mixed.ts), in a process of their own so
 * that the event client's work never delays their measurements: one client per path of READERS_PATHS (JSON), each
 * sending its request again as soon as the last was answered (one keep-alive connection each), READERS_WARMUP_MS
 * unmeasured, then READERS_SECONDS measured. Prints `STARTED` when the measured part begins, then
 * `RESULT {path: {requests, p50, p95, statuses}}` (ms from sending to the end of the body, of the 200s).
 */
import { get } from './host-request';
import { quantile } from './proc';

const BASE = process.env.READERS_BASE ?? '';
const AUTHORIZATION = process.env.READERS_AUTHORIZATION ?? '';
const PATHS = JSON.parse(process.env.READERS_PATHS ?? '[]') as string[];
const WARMUP_MS = Number(process.env.READERS_WARMUP_MS ?? 3000);
const SECONDS = Number(process.env.READERS_SECONDS ?? 20);

export interface ReaderResult {
  requests: number;
  p50: number;
  p95: number;
  statuses: Record<string, number>;
}

async function reader(path: string, measureFrom: number, until: number): Promise<ReaderResult> {
  const host = new URL(BASE).host;
  const times: number[] = [];
  const statuses: Record<string, number> = {};
  while (performance.now() < until) {
    const started = performance.now();
    const answer = await get(BASE, path, host, AUTHORIZATION).catch(() => ({ status: 0, ms: 0 }));
    if (started >= measureFrom) {
      statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
      if (answer.status === 200) {
        times.push(answer.ms);
      }
    }
  }
  times.sort((a, b) => a - b);
  return { requests: times.length, p50: quantile(times, 0.5), p95: quantile(times, 0.95), statuses };
}

async function main(): Promise<void> {
  const measureFrom = performance.now() + WARMUP_MS;
  const until = measureFrom + SECONDS * 1000;
  setTimeout(() => process.stdout.write('STARTED\n'), WARMUP_MS);
  const results = await Promise.all(PATHS.map((p) => reader(p, measureFrom, until)));
  process.stdout.write(`RESULT ${JSON.stringify(Object.fromEntries(PATHS.map((p, i) => [p, results[i]])))}\n`);
  process.exit(0);
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exit(1);
});
