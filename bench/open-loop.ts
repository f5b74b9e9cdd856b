/**
 * Load at a constant arrival rate, open loop: request k starts at start + k / rate whether or not earlier ones have
 * been answered, from as many keep-alive connections as needed up to a cap (node:http's Agent opens one when none
 * is free; beyond the cap requests wait in the client, and that wait counts in their latency). Latency runs from
 * the moment a request was due, not from when it was sent, so a stalled service or client is not hidden
 * (coordinated omission). Also the closed-loop maximum of a cheap route (the floor the open-loop rates are set from).
 */
import { Agent, request, type ClientRequest } from 'node:http';

/** One request of a run: the answer's status (or why there was none) and its latency from the moment it was due. */
export interface Shot {
  index: number;
  status?: number;
  /** A socket error (ECONNRESET, ...), or 'no answer' when the run stopped waiting for it. */
  error?: string;
  ms?: number;
  body?: string;
}

export interface OpenLoopRun {
  base: string;
  path: string;
  method: 'GET' | 'POST';
  rate: number;
  seconds: number;
  /** Headers and body of request `index`, made when it is due (a fresh nonce and signature each). */
  make(index: number): { headers: Record<string, string>; body?: Buffer };
  /** Keep-alive connections at most (over all senders). */
  connections: number;
  /**
   * Senders, each with a keep-alive pool of its own (connections / senders at most), request k sent by sender k mod
   * senders: a shop's servers (default 1).
   */
  senders?: number;
  /** How long after the last request was due answers are awaited; then the rest are given up (no answer). */
  drainMs: number;
}

export interface OpenLoopResult {
  offered: number;
  shots: Shot[];
  /** From the first request due to the last answer (or to giving up). */
  seconds: number;
  /** The most connections open at once. */
  connectionsUsed: number;
  /** The schedule's worst lag: how late the client started a request after it was due (its own CPU). */
  maxStartLagMs: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Connections the agent holds, busy and idle. */
function openSockets(agent: Agent): number {
  const count = (lists: NodeJS.ReadOnlyDict<unknown[]>) => Object.values(lists).reduce((n, list) => n + (list?.length ?? 0), 0);
  return count(agent.sockets) + count(agent.freeSockets);
}

export async function openLoop(run: OpenLoopRun): Promise<OpenLoopResult> {
  const senders = run.senders ?? 1;
  const agents = Array.from({ length: senders }, () => new Agent({ keepAlive: true, maxSockets: Math.ceil(run.connections / senders) }));
  const sockets = () => agents.reduce((n, agent) => n + openSockets(agent), 0);
  const offered = Math.round(run.rate * run.seconds);
  const shots: Shot[] = [];
  const pending = new Set<ClientRequest>();
  let connectionsUsed = 0;
  let maxStartLagMs = 0;
  let settled = 0;
  let allSettled: () => void = () => undefined;
  const url = new URL(run.path, run.base);

  const fire = (index: number, due: number) => {
    const shot: Shot = { index };
    shots.push(shot);
    const { headers, body } = run.make(index);
    let settledHere = false;
    const done = () => {
      if (settledHere) {
        return;
      }
      settledHere = true;
      if (shot.status === undefined && shot.error === undefined) {
        shot.error = 'closed';
      }
      pending.delete(req);
      if (++settled === offered) {
        allSettled();
      }
    };
    const req = request(url, {
      method: run.method,
      agent: agents[index % senders],
      headers: body ? { ...headers, 'content-length': String(body.length) } : headers,
    });
    pending.add(req);
    req.once('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.once('end', () => {
        shot.status = res.statusCode;
        shot.ms = performance.now() - due;
        shot.body = Buffer.concat(chunks).toString();
        done();
      });
      res.once('error', (e) => {
        shot.error ??= (e as NodeJS.ErrnoException).code ?? e.message;
      });
    });
    req.once('error', (e) => {
      if (shot.status === undefined) {
        shot.error ??= (e as NodeJS.ErrnoException).code ?? e.message;
      }
      done();
    });
    // A connection closed without an answer or an error (an answer cut short); after an answer, nothing changes.
    req.once('close', () => setImmediate(done));
    req.end(body);
  };

  const everySettled = new Promise<void>((resolve) => (allSettled = resolve));
  const start = performance.now() + 20;
  let next = 0;
  while (next < offered) {
    const now = performance.now();
    while (next < offered && start + (next * 1000) / run.rate <= now) {
      const due = start + (next * 1000) / run.rate;
      maxStartLagMs = Math.max(maxStartLagMs, now - due);
      fire(next++, due);
    }
    connectionsUsed = Math.max(connectionsUsed, sockets());
    if (next < offered) {
      await sleep(Math.max(0, Math.min(5, start + (next * 1000) / run.rate - performance.now())));
    }
  }
  const lastDue = start + ((offered - 1) * 1000) / run.rate;
  const sampler = setInterval(() => (connectionsUsed = Math.max(connectionsUsed, sockets())), 50);
  await Promise.race([everySettled, sleep(Math.max(0, lastDue + run.drainMs - performance.now()))]);
  clearInterval(sampler);
  const end = performance.now();
  for (const req of [...pending]) {
    req.destroy(new Error('no answer'));
  }
  for (const shot of shots) {
    if (shot.status === undefined) {
      shot.error = shot.error === undefined || shot.error === 'closed' ? 'no answer' : shot.error;
    }
  }
  agents.forEach((agent) => agent.destroy());
  return { offered, shots, seconds: (end - start) / 1000, connectionsUsed, maxStartLagMs };
}

/** The most requests per second `connections` clients sending one after the other get answered 200 within `seconds`. */
export async function closedLoopMax(base: string, path: string, connections: number, seconds: number): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const url = new URL(path, base);
  const once = () =>
    new Promise<number>((resolve) => {
      const req = request(url, { agent }, (res) => {
        res.resume();
        res.once('end', () => resolve(res.statusCode ?? 0));
      });
      req.once('error', () => resolve(0));
      req.end();
    });
  const loop = async (until: number) => {
    let ok = 0;
    while (performance.now() < until) {
      if ((await once()) === 200) {
        ok++;
      }
    }
    return ok;
  };
  const loops = (ms: number) => Promise.all(Array.from({ length: connections }, () => loop(performance.now() + ms)));
  await loops(1_000); // warm-up: connections opened, code paths compiled
  const started = performance.now();
  const ok = (await loops(seconds * 1000)).reduce((a, b) => a + b, 0);
  agent.destroy();
  return ok / ((performance.now() - started) / 1000);
}
