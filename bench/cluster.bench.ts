/**
 * npm run bench:cluster [-- --events 200000]: the server path on three storages, same events, same service:
 * - the Node stand-in (bench/chdb-http.ts), which the server-path benchmarks used before a real server could run here;
 * - one real ClickHouse server (bench/clickhouse-server.ts: the chdb package's engine serving its own HTTP interface);
 * - a two-shard cluster of two such servers on loopback, in cluster mode (CLICKHOUSE_CLUSTER, plain engines).
 * For each: the composition app on a fresh database, `--events` signed events over 30 days and 4 instances sent in
 * requests of 1,000 (4 at a time): the intake rate; `GET /search-terms` since=1d and since=30d (cache off), p50 of 30;
 * and freshness: from a request's 202 until the list shows its phrase, p95 of 30. The figures are ratios against the
 * one server (the stand-in's, and the cluster's, whose two shards share the same two cores); they go to
 * docs/benchmarks/figures.json (`cluster`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import { startClickHouseCluster, type ClickHouseCluster } from './clickhouse-cluster';
import { startClickHouseServer, type ClickHouseServer } from './clickhouse-server';
import { recordFigures, type Figure } from './figures';
import { freePort, quantile } from './proc';

const ROOT = path.resolve(__dirname, '../..');
const BASIC = 'bench:bench-password-1';
const AUTHORIZATION = `Basic ${Buffer.from(BASIC).toString('base64')}`;
const INSTANCES = ['live', 'stage', 'shop3', 'shop4'];
const DAY = 86_400_000;
const at = process.argv.indexOf('--events');
const EVENTS = at >= 0 ? Number(process.argv[at + 1]) : 200_000;

interface Storage {
  name: string;
  env: Record<string, string>;
  stop(): Promise<void>;
}

interface Measured {
  eventsPerSecond: number;
  p50Day: number;
  p50Month: number;
  freshnessP95: number;
}

async function standIn(): Promise<Storage> {
  const child = spawn(process.execPath, [path.join(ROOT, 'dist/bench/chdb-http.js')], {
    env: { PATH: process.env.PATH, DATA_DIR: path.join(ROOT, 'tmp', `bench-stand-in-${randomUUID()}`) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve) => {
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /PORT (\d+)/.exec(out);
      if (m) {
        resolve(Number(m[1]));
      }
    });
  });
  return { name: 'stand-in', env: { CLICKHOUSE_URL: `http://127.0.0.1:${port}` }, stop: () => stopChild(child) };
}

async function server(): Promise<Storage> {
  const s: ClickHouseServer = await startClickHouseServer();
  return { name: 'server', env: { CLICKHOUSE_URL: s.url }, stop: () => s.stop() };
}

async function cluster(): Promise<Storage> {
  const c: ClickHouseCluster = await startClickHouseCluster('bench');
  return {
    name: 'cluster',
    env: { CLICKHOUSE_URL: c.servers[0].url, CLICKHOUSE_CLUSTER: 'bench', CLICKHOUSE_REPLICATED: 'false' },
    stop: () => c.stop(),
  };
}

async function stopChild(child: ChildProcess): Promise<void> {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

async function startService(storage: Storage): Promise<{ base: string; stop(): Promise<void> }> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(ROOT, 'dist/apps/standalone/src/main.js')], {
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      DATA_DIR: path.join(ROOT, 'tmp', `bench-cluster-${randomUUID()}`),
      CLICKHOUSE_DATABASE: 'bench_cluster',
      SERVICE_BASIC_AUTH: BASIC,
      SERVICE_INSTANCES: INSTANCES.join(','),
      SEARCH_TERMS_CACHE_MS: '0',
      RATE_LIMIT_PER_MINUTE: '0',
      INTAKE_PER_MINUTE: '0',
      LOG_LEVEL: 'warn',
      ...storage.env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(`the service on ${storage.name} exited with ${child.exitCode}`);
    }
    if (
      await fetch(`${base}/health/ready`).then(
        (r) => r.ok,
        () => false,
      )
    ) {
      return { base, stop: () => stopChild(child) };
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function post(base: string, instance: string, events: object[]): Promise<void> {
  const res = await fetch(`${base}/events`, {
    method: 'POST',
    headers: { authorization: AUTHORIZATION, 'content-type': 'application/json', 'x-service-instance': instance },
    body: JSON.stringify({ events }),
  });
  if (res.status !== 202) {
    throw new Error(`POST /events answered ${res.status}: ${await res.text()}`);
  }
  await res.arrayBuffer();
}

async function timed(url: string): Promise<number> {
  const began = performance.now();
  const res = await fetch(url, { headers: { authorization: AUTHORIZATION } });
  await res.arrayBuffer();
  if (res.status !== 200) {
    throw new Error(`${url} answered ${res.status}`);
  }
  return performance.now() - began;
}

async function measure(storage: Storage): Promise<Measured> {
  const service = await startService(storage);
  try {
    const now = Date.now();
    const requests = Math.ceil(EVENTS / 1000);
    let next = 0;
    const began = performance.now();
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let r = next++; r < requests; r = next++) {
          const events = Array.from({ length: 1000 }, (_, i) => ({
            phrase: `term ${(r * 1000 + i) % 5000}`,
            language: ['en', 'de', 'fr'][i % 3],
            hits: i % 9,
            ts: now - ((r * 1000 + i) % (30 * 24)) * (DAY / 24) - 1000,
          }));
          await post(service.base, INSTANCES[r % INSTANCES.length], events);
        }
      }),
    );
    const eventsPerSecond = (requests * 1000) / ((performance.now() - began) / 1000);
    const sample = async (query: string) => {
      const times: number[] = [];
      for (let i = 0; i < 30; i++) {
        times.push(await timed(`${service.base}/search-terms?${query}`));
      }
      return quantile(
        times.sort((a, b) => a - b),
        0.5,
      );
    };
    const p50Day = await sample('since=1d');
    const p50Month = await sample('since=30d');
    const fresh: number[] = [];
    for (let i = 0; i < 30; i++) {
      const phrase = `fresh ${randomUUID()}`;
      await post(service.base, 'live', [{ phrase, language: 'xx', hits: 0 }]);
      const answered = performance.now();
      for (;;) {
        const res = await fetch(`${service.base}/search-terms?since=1d&hits=false&language=xx&_end=1000`, {
          headers: { authorization: AUTHORIZATION },
        });
        const list = (await res.json()) as Array<{ search_phrase: string }>;
        if (list.some((t) => t.search_phrase === phrase)) {
          break;
        }
      }
      fresh.push(performance.now() - answered);
    }
    return {
      eventsPerSecond,
      p50Day,
      p50Month,
      freshnessP95: quantile(
        fresh.sort((a, b) => a - b),
        0.95,
      ),
    };
  } finally {
    await service.stop();
  }
}

async function main(): Promise<void> {
  const results: Record<string, Measured> = {};
  for (const start of [server, standIn, cluster]) {
    const storage = await start();
    try {
      results[storage.name] = await measure(storage);
      process.stdout.write(`${storage.name}: ${JSON.stringify(results[storage.name])}\n`);
    } finally {
      await storage.stop();
    }
  }
  const one = results.server;
  const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;
  const n = `${EVENTS / 1000}k`;
  const figures: Figure[] = [];
  for (const [name, label] of [
    ['server', 'one server'],
    ['stand-in', 'the Node stand-in'],
    ['cluster', 'the loopback cluster'],
  ] as const) {
    const r = results[name];
    figures.push(
      {
        name: `${label}: intake, ${n} events (events/s)`,
        value: Math.round(r.eventsPerSecond),
        unit: 'events/s',
        target: 'reported',
        pass: null,
      },
      { name: `${label}: /search-terms 1d p50 (ms)`, value: Math.round(r.p50Day * 10) / 10, unit: 'ms', target: 'reported', pass: null },
      { name: `${label}: /search-terms 30d p50 (ms)`, value: Math.round(r.p50Month * 10) / 10, unit: 'ms', target: 'reported', pass: null },
      { name: `${label}: freshness p95 (ms)`, value: Math.round(r.freshnessP95), unit: 'ms', target: 'reported', pass: null },
    );
  }
  for (const name of ['stand-in', 'cluster'] as const) {
    const r = results[name];
    figures.push(
      {
        name: `${name} / one server: intake rate`,
        value: ratio(r.eventsPerSecond, one.eventsPerSecond),
        unit: 'x',
        target: 'reported',
        pass: null,
      },
      { name: `${name} / one server: 1d p50`, value: ratio(r.p50Day, one.p50Day), unit: 'x', target: 'reported', pass: null },
      { name: `${name} / one server: 30d p50`, value: ratio(r.p50Month, one.p50Month), unit: 'x', target: 'reported', pass: null },
      {
        name: `${name} / one server: freshness p95`,
        value: ratio(r.freshnessP95, one.freshnessP95),
        unit: 'x',
        target: 'reported',
        pass: null,
      },
    );
  }
  recordFigures('cluster', figures);
}

void main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
