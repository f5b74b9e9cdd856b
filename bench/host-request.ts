/** GET requests with a Host header of their own (fetch cannot set one), as multi-customer clients send them. */
import { Agent, request } from 'node:http';

export interface Answer {
  status: number;
  ms: number;
  /** Retry-After in seconds, when the answer has one. */
  retryAfter?: number;
  totalCount?: number;
}

/** Keep-alive connections without a cap, as independent clients would have. */
export const agent = new Agent({ keepAlive: true, maxSockets: Infinity });

/** `path` from `base` with Host `host`; the body is read to its end (and dropped). */
export function get(base: string, path: string, host: string, authorization: string): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { agent, headers: { host, authorization } }, (res) => {
      res.resume();
      res.once('error', reject);
      res.once('end', () => {
        const retry = res.headers['retry-after'];
        const total = res.headers['x-total-count'];
        resolve({
          status: res.statusCode ?? 0,
          ms: performance.now() - started,
          retryAfter: retry === undefined ? undefined : Number(retry),
          totalCount: typeof total === 'string' ? Number(total) : undefined,
        });
      });
    });
    req.once('error', reject);
    req.end();
  });
}
