/**
 * npm run bench:adapters — GET /search-terms on Express (the service) and on Fastify, same modules, same data
 * (the query benchmark's data set, tmp/bench-query; run bench:query first), computed and cached, autocannon
 * 10 connections x 10 s each.
 */
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const BASIC = 'bench:bench-password-1';
const DATA_DIR = process.env.BENCH_DATA_DIR ?? path.join(ROOT, 'tmp', 'bench-query');
const REQUESTS = ['since=1d', 'since=30d'];

async function measure(entry: string, cacheMs: string): Promise<Record<string, { rps: number; p50: number; p97_5: number }>> {
  const port = 3800 + Math.floor(Math.random() * 90);
  const app = spawn(process.execPath, [entry], {
    env: { PATH: process.env.PATH, DATA_DIR, CLICKHOUSE_DATABASE: 'bench', SERVICE_BASIC_AUTH: BASIC, PORT: String(port), SEARCH_TERMS_CACHE_MS: cacheMs, LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${base}/health`)).ok) break;
    } catch {
      /* starting */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const out: Record<string, { rps: number; p50: number; p97_5: number }> = {};
  for (const q of REQUESTS) {
    const r = await autocannon({ url: `${base}/search-terms?${q}`, connections: 10, duration: 10, headers: { authorization: `Basic ${Buffer.from(BASIC).toString('base64')}` } });
    if (r.non2xx > 0 || r.errors > 0) throw new Error(`${entry} ${q}: ${r.non2xx} non-2xx, ${r.errors} errors`);
    out[q] = { rps: Math.round(r.requests.average), p50: r.latency.p50, p97_5: r.latency.p97_5 };
  }
  app.kill('SIGTERM');
  await new Promise((r) => app.once('exit', r));
  return out;
}

async function main(): Promise<void> {
  const entries = { express: path.join(ROOT, 'dist/apps/standalone/src/main.js'), fastify: path.join(__dirname, 'fastify-main.js') };
  const rows: string[] = [];
  for (const [cache, label] of [['0', 'computed'], ['1000', 'cached']]) {
    const express = await measure(entries.express, cache);
    const fastify = await measure(entries.fastify, cache);
    for (const q of REQUESTS) {
      rows.push(`| ${q} ${label} | ${express[q].rps} | ${express[q].p50} / ${express[q].p97_5} | ${fastify[q].rps} | ${fastify[q].p50} / ${fastify[q].p97_5} |`);
    }
  }
  process.stdout.write(`
## Express vs Fastify (GET /search-terms, 10 connections x 10 s, ${new Date().toISOString().slice(0, 10)})

| request | Express req/s | Express p50 / p97.5 ms | Fastify req/s | Fastify p50 / p97.5 ms |
|---|---|---|---|---|
${rows.join('\n')}
`);
  process.exit(0);
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exit(1);
});
