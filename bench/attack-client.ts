/**
 * The attacker's side of the attacks on the real process, shared by the attack benchmark (bench/attacks.bench.ts)
 * and the attack suites (test/security/attack.ts re-exports it): uploads sent the way an attacker sends them, the
 * body that costs a parser the most, GET requests from a chosen client address, and timed /health probes.
 */
import { readFileSync } from 'node:fs';
import { request } from 'node:http';

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
      if (done) {
        return;
      }
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
      if (outcome.status === undefined) {
        finish();
      }
    });
    req.on('close', () => setTimeout(finish, 50));
    const chunk = u.chunkBytes ?? 64 * 1024;
    const started = Date.now();
    let offset = 0;
    const writeMore = () => {
      while (offset < u.body.length && !req.destroyed && outcome.status === undefined) {
        if (u.writeForMs !== undefined && Date.now() - started > u.writeForMs) {
          return req.destroy();
        }
        const piece = u.body.subarray(offset, offset + chunk);
        offset += piece.length;
        const flushed = req.write(piece);
        if (u.pauseMs) {
          return void setTimeout(writeMore, u.pauseMs);
        }
        if (!flushed) {
          return void req.once('drain', writeMore);
        }
      }
      if (offset >= u.body.length) {
        req.end();
      }
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

/** A GET without a body from a chosen client address (fetch cannot choose it): the status (0 without an answer) and Retry-After. */
export function getFrom(
  base: string,
  path: string,
  headers: Record<string, string>,
  localAddress: string,
): Promise<{ status: number; retryAfter: string | null }> {
  return new Promise((resolve) => {
    const req = request(`${base}${path}`, { headers, localAddress });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: (res.headers['retry-after'] as string) ?? null }));
    });
    req.on('error', () => resolve({ status: 0, retryAfter: null }));
    req.end();
  });
}

/** Times GET /health; a timeout counts as that long (and a failure, status 0). */
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

/** Resident memory of a process in MB (VmRSS), and its peak so far (VmHWM). */
export function memoryOf(pid: number): { rssMb: number; peakMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rssMb: Math.round(kb('VmRSS') / 1024), peakMb: Math.round(kb('VmHWM') / 1024) };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
