import type { Service } from '../support/processes';
import { basicAuthorization, countOf, getFrom, signedEvent, startTarget, timedHealth } from './attack';

/**
 * Wrong Basic passwords sent all at once: each attempt counts when it starts, not when its scrypt hash finishes,
 * and hashing runs in worker threads of its own, at most PASSWORD_HASH_CONCURRENCY at once, so the thread pool
 * storage needs stays free: /health and the customer's calls keep answering.
 */
describe('a flood of concurrent wrong passwords', () => {
  let target: Service;
  const LIMIT = 60;
  beforeAll(async () => {
    target = await startTarget({ AUTH_FAILURES_PER_MINUTE: String(LIMIT) });
  }, 90_000);
  afterAll(() => target?.stop());

  const attempt = (localAddress: string) =>
    getFrom(target.url, '/search-terms?since=1d', { authorization: basicAuthorization(`wrong-${Math.random()}`) }, localAddress);

  it('hashes no more attempts from one address than the limit, keeps /health answering and stores the signed event once', async () => {
    const customer = signedEvent('sent-during-the-flood');
    const health: { ms: number; status: number }[] = [];
    let flooding = true;
    const probe = (async () => {
      while (flooding) {
        health.push(await timedHealth(target.url, 10_000));
      }
    })();
    const [outcomes, accepted] = await Promise.all([
      Promise.all(Array.from({ length: 900 }, () => attempt('127.0.0.5'))),
      fetch(`${target.url}/events`, { method: 'POST', headers: customer.headers, body: customer.body }),
    ]);
    flooding = false;
    await probe;
    const count = (status: number) => outcomes.filter((o) => o.status === status).length;
    expect(count(401) + count(429)).toBe(900);
    // Counted when they start: at most LIMIT attempts were hashed (and answered 401); the rest 429.
    expect(count(401)).toBeLessThanOrEqual(LIMIT);
    expect(outcomes.filter((o) => o.status === 429).every((o) => Number(o.retryAfter) > 0)).toBe(true);
    expect(accepted.status).toBe(202);
    // Before the hashing had workers of its own, probes timed out at 10 s (docs/benchmarks/history/2026-11-23-issue-25.md).
    expect(health.filter((h) => h.status !== 200)).toEqual([]);
    const ms = health.map((h) => h.ms).sort((a, b) => a - b);
    expect(ms[Math.floor(ms.length / 2)]).toBeLessThan(250);
    expect(ms[ms.length - 1]).toBeLessThan(5_000);
    expect(await countOf(target.url, 'sent-during-the-flood')).toBe(1);
  }, 120_000);

  it('answers 429 with Retry-After when more passwords wait to be hashed than the short queue holds', async () => {
    // 20 addresses with 15 attempts each: no address reaches its failure limit, so only the hashing bound refuses.
    const addresses = Array.from({ length: 20 }, (_, i) => `127.0.1.${i + 1}`);
    const started = performance.now();
    const outcomes = await Promise.all(addresses.flatMap((a) => Array.from({ length: 15 }, () => attempt(a))));
    const refused = outcomes.filter((o) => o.status === 429);
    expect(outcomes.filter((o) => o.status === 401).length + refused.length).toBe(300);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.every((o) => Number(o.retryAfter) > 0)).toBe(true);
    expect((await timedHealth(target.url, 10_000)).status).toBe(200);
    expect(performance.now() - started).toBeLessThan(60_000);
  }, 90_000);
});
