import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { signRequest } from '@app/auth';
import { freshDir, startService, type Service } from '../support/processes';
import { BASIC, LEGACY_SECRET, nonce } from '../support/test-app';

const STANDALONE = 'apps/standalone/src/main.js';
/** The heap limit the attacked process runs with: an attack that buffers bodies on the heap kills it. */
export const HEAP_LIMIT_MB = 384;

/** The real embedded service as its own process, with a heap limit, Basic credentials and the legacy key. */
export function startTarget(env: Record<string, string> = {}): Promise<Service> {
  return startService(
    STANDALONE,
    {
      DATA_DIR: freshDir('attack'),
      SERVICE_BASIC_AUTH: `${BASIC.login}:${BASIC.password}`,
      SERVICE_LEGACY_SECRET: LEGACY_SECRET,
      LOG_LEVEL: 'warn',
      NODE_OPTIONS: `--max-old-space-size=${HEAP_LIMIT_MB}`,
      ...env,
    },
    60_000,
  );
}

/** Resident memory of a process in MB (VmRSS), and its peak so far (VmHWM). */
export function memoryOf(pid: number): { rssMb: number; peakMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rssMb: Math.round(kb('VmRSS') / 1024), peakMb: Math.round(kb('VmHWM') / 1024) };
}

export interface Outcome {
  /** The answer's status; undefined when the connection failed before one arrived. */
  status?: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** A socket error, when there was one (after an answer: the server closed a connection the client kept writing to). */
  error?: string;
}

export interface Upload {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  /** The body, sent in `chunkBytes` pieces `pauseMs` apart (a slow upload), or at once when pauseMs is 0. */
  body: Buffer;
  chunkBytes?: number;
  pauseMs?: number;
  localAddress?: string;
  /** Give up writing after this long (the answer is still awaited). */
  writeForMs?: number;
}

/**
 * Sends a request the way an attacker would: headers first, then the body in pieces, without waiting for an answer.
 * Resolves with the answer (or the socket error when none came) once the server has answered or closed.
 */
export function upload(base: string, u: Upload): Promise<Outcome> {
  return new Promise((resolve) => {
    const outcome: Outcome = { headers: {}, body: '' };
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      resolve(outcome);
    };
    const req = request(`${base}${u.path}`, {
      method: u.method ?? 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(u.body.length), ...u.headers },
      localAddress: u.localAddress,
    });
    req.on('response', (res) => {
      outcome.status = res.statusCode;
      outcome.headers = res.headers;
      res.on('data', (c: Buffer) => (outcome.body += c.toString()));
      res.on('end', finish);
      res.on('error', finish);
    });
    req.on('error', (e) => {
      outcome.error = e.message;
      // An answer already read is the outcome; without one, the error is.
      if (outcome.status === undefined) finish();
    });
    req.on('close', () => setTimeout(finish, 50));
    const chunk = u.chunkBytes ?? 64 * 1024;
    const started = Date.now();
    let offset = 0;
    const writeMore = () => {
      while (offset < u.body.length && !req.destroyed && outcome.status === undefined) {
        if (u.writeForMs !== undefined && Date.now() - started > u.writeForMs) return req.destroy();
        const piece = u.body.subarray(offset, offset + chunk);
        offset += piece.length;
        const flushed = req.write(piece);
        if (u.pauseMs) return void setTimeout(writeMore, u.pauseMs);
        if (!flushed) return void req.once('drain', writeMore);
      }
      if (offset >= u.body.length) req.end();
    };
    writeMore();
  });
}

/**
 * A 10 MB JSON body of the shape that costs a parser the most: many small objects (each becomes a heap object, and
 * the text a 10 MB string before that).
 */
export function bulkyEvents(bytes = 10 * 1024 * 1024 - 1024): Buffer {
  const one = JSON.stringify({ phrase: 'attack', language: 'en', hits: 1 });
  const count = Math.floor((bytes - 20) / (one.length + 1));
  return Buffer.from(`{"events":[${new Array(count).fill(one).join(',')}]}`);
}

/** The signed request a customer sends during the attack: one event with a phrase of its own. */
export function signedEvent(phrase: string): { headers: Record<string, string>; body: string } {
  const body = JSON.stringify({ events: [{ id: randomUUID(), phrase, language: 'en', hits: 3 }] });
  const n = nonce();
  return {
    body,
    headers: { 'content-type': 'application/json', 'x-service-nonce': n, 'x-service-hash': signRequest(LEGACY_SECRET, n, body) },
  };
}

export const basicAuthorization = (password = BASIC.password) => `Basic ${Buffer.from(`${BASIC.login}:${password}`).toString('base64')}`;

/** How often `phrase` was searched today, as GET /search-terms counts it (Basic credentials). */
export async function countOf(base: string, phrase: string): Promise<number> {
  const res = await fetch(`${base}/search-terms?since=1d&_end=1000`, { headers: { authorization: basicAuthorization() } });
  if (res.status !== 200) throw new Error(`GET /search-terms answered ${res.status}: ${await res.text()}`);
  const terms = (await res.json()) as { search_phrase: string; count: number }[];
  return terms.find((t) => t.search_phrase === phrase)?.count ?? 0;
}

/** Times GET /health; a timeout counts as that long (and a failure). */
export async function timedHealth(base: string, timeoutMs = 10_000): Promise<{ ms: number; status: number }> {
  const started = performance.now();
  try {
    const res = await fetch(`${base}/health`, { signal: AbortSignal.timeout(timeoutMs) });
    await res.arrayBuffer();
    return { ms: performance.now() - started, status: res.status };
  } catch {
    return { ms: timeoutMs, status: 0 };
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
