/**
 * npm run soak — the built service under concurrent POST /events and GET /search-terms for SOAK_SECONDS (default
 * 180), loopback only. Afterwards the counts served by GET /search-terms must equal exactly the events accepted;
 * RSS is sampled every 5 s (flat = no growth in the second half); p50/p99 latency per route are reported.
 * Exits non-zero when the counts differ or a request failed.
 */
import { spawn } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { recordFigures } from './figures';
import { searchEvents } from './generator';
import { peakRssMb, quantile } from './proc';

const ROOT = path.resolve(__dirname, '../..');
const SECONDS = Number(process.env.SOAK_SECONDS ?? 180);
const SECRET = 'soak-legacy-secret-0123456789abcdef';
const BASIC = `Basic ${Buffer.from('ops:soak-password-1').toString('base64')}`;

function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : 0;
  } catch {
    return 0;
  }
}

async function main(): Promise<void> {
  const port = 3700 + Math.floor(Math.random() * 90);
  const app = spawn(process.execPath, [path.join(ROOT, 'dist/apps/standalone/src/main.js')], {
    env: {
      PATH: process.env.PATH,
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'soak-')),
      PORT: String(port),
      SERVICE_BASIC_AUTH: 'ops:soak-password-1',
      SERVICE_LEGACY_SECRET: SECRET,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '0',
      INTAKE_PER_MINUTE: '0',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${base}/health`)).ok) {
        break;
      }
    } catch {
      /* starting */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const latencies: Record<string, number[]> = { 'POST /events': [], 'GET /search-terms': [] };
  let accepted = 0;
  let failures = 0;
  const rss: number[] = [];
  const deadline = Date.now() + SECONDS * 1000;
  const sampler = setInterval(() => rss.push(rssMb(app.pid!)), 5000);

  const writer = async (seed: number) => {
    for (let batch = 0; Date.now() < deadline; batch++) {
      const events = [...searchEvents(200, { seed: seed * 100_000 + batch, end: Date.now(), spanMs: 60_000, phrases: 20_000 })].map(
        ({ phrase, language, hits, userAgent, ts }) => ({ phrase, language, hits, userAgent, ts }),
      );
      const body = JSON.stringify({ events });
      const nonce = randomBytes(16).toString('hex');
      const hash = createHmac('sha256', SECRET).update(`${nonce}:${body}`).digest('hex');
      const t = performance.now();
      const res = await fetch(`${base}/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-service-nonce': nonce, 'x-service-hash': hash },
        body,
      });
      const answer = (await res.json()) as { accepted: number };
      latencies['POST /events'].push(performance.now() - t);
      if (res.status === 202) {
        accepted += answer.accepted;
      } else {
        failures++;
      }
    }
  };
  const reader = async () => {
    const queries = ['since=1d', 'since=1d&hits=false', 'since=1d&language=de', 'since=7d&_start=10&_end=60'];
    for (let i = 0; Date.now() < deadline; i++) {
      const t = performance.now();
      const res = await fetch(`${base}/search-terms?${queries[i % queries.length]}`, { headers: { authorization: BASIC } });
      await res.text();
      latencies['GET /search-terms'].push(performance.now() - t);
      if (res.status !== 200) {
        failures++;
      }
    }
  };
  await Promise.all([...[1, 2, 3, 4].map(writer), reader(), reader()]);
  clearInterval(sampler);

  // Every accepted event is counted once: the hits=true and hits=false lists, bots included, over all pages.
  let counted = 0;
  for (const hits of ['true', 'false']) {
    for (let start = 0; ; start += 1000) {
      const res = await fetch(`${base}/search-terms?since=1d&includeBotTraffic=true&hits=${hits}&_start=${start}&_end=${start + 1000}`, {
        headers: { authorization: BASIC },
      });
      const page = (await res.json()) as Array<{ count: number }>;
      counted += page.reduce((n, t) => n + t.count, 0);
      if (start + 1000 >= Number(res.headers.get('x-total-count'))) {
        break;
      }
    }
  }
  const peak = peakRssMb(app.pid!);
  app.kill('SIGTERM');
  const half = rss.slice(Math.floor(rss.length / 2));
  const summary = Object.entries(latencies).map(([route, xs]) => {
    const sorted = [...xs].sort((a, b) => a - b);
    return `| ${route} | ${xs.length} | ${quantile(sorted, 0.5).toFixed(1)} | ${quantile(sorted, 0.99).toFixed(1)} |`;
  });
  const sortedOf = (route: string) => [...latencies[route]].sort((a, b) => a - b);
  const p = (route: string, q: number) => Math.round(quantile(sortedOf(route), q) * 10) / 10;
  const count = (n: number) => n.toLocaleString('en');
  recordFigures('soak', [
    {
      name: 'events accepted by POST /events, all counted by GET /search-terms afterwards',
      value: accepted,
      unit: 'events',
      target: 'counted = accepted, no failed request',
      pass: counted === accepted && failures === 0,
      note: `${count(counted)} counted, ${failures} failed requests, ${SECONDS} s`,
    },
    ...['POST /events', 'GET /search-terms'].map((route) => ({
      name: `${route} p99`,
      value: p(route, 0.99),
      unit: 'ms',
      target: 'reported',
      pass: null,
      note: `p50 ${p(route, 0.5)} ms, ${count(latencies[route].length)} requests`,
    })),
    {
      name: 'peak RSS',
      value: peak,
      unit: 'MB',
      target: 'reported',
      pass: null,
      note: `second half ${Math.min(...half)}-${Math.max(...half)} MB`,
    },
  ]);
  process.stdout.write(`
## Soak (${SECONDS} s, 4 writers x 200 events/request, 2 readers, ${new Date().toISOString().slice(0, 10)})

| route | requests | p50 ms | p99 ms |
|---|---|---|---|
${summary.join('\n')}

Accepted ${accepted} events, counted ${counted} (${counted === accepted ? 'equal' : 'DIFFERENT'}); failed requests: ${failures}.
RSS (MB, every 5 s): ${rss.join(' ')}; second half min ${Math.min(...half)} / max ${Math.max(...half)}; peak ${peak}.
`);
  process.exit(counted === accepted && failures === 0 ? 0 : 1);
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exit(1);
});
