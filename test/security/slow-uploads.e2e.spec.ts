import type { Service } from '../support/processes';
import { bulkyEvents, countOf, memoryOf, signedEvent, sleep, startTarget, timedHealth, upload, type Outcome } from './attack';

/** A well-formed HMAC request whose signature cannot be known until its body is in: its body waits, as bytes. */
const unverifiedHeaders = (i: number) => ({ 'x-service-nonce': `slow-upload-${i}-${Date.now()}`, 'x-service-hash': 'ab'.repeat(32) });

/**
 * Slow uploads hold connections open while their bodies trickle in. Without credentials they are refused before a
 * byte is read; with well-formed HMAC headers each body is held as bytes, at most 4 per client address and
 * UNVERIFIED_BODY_BYTES in all (beyond: 503 with Retry-After), and given back when refused.
 */
describe('slow uploads', () => {
  let target: Service;
  const MB = 1024 * 1024;
  beforeAll(async () => {
    target = await startTarget({ UNVERIFIED_BODY_BYTES: String(60 * MB) });
  }, 90_000);
  afterAll(() => target?.stop());

  it('refuses 200 slow unauthenticated 10 MB uploads at once, holding no memory, and stores the signed event sent meanwhile', async () => {
    const pid = target.child.pid as number;
    const before = memoryOf(pid).rssMb;
    const body = bulkyEvents();
    const customer = signedEvent('sent-during-slow-uploads');
    const [outcomes, accepted] = await Promise.all([
      Promise.all(
        Array.from({ length: 200 }, () =>
          upload(target.url, { path: '/events', body, pauseMs: 200, chunkBytes: 16 * 1024, localAddress: '127.0.0.3' }),
        ),
      ),
      sleep(500).then(() => fetch(`${target.url}/events`, { method: 'POST', headers: customer.headers, body: customer.body })),
    ]);
    // 401, or 429 once the address has spent its failed authentications: either way, answered unread.
    expect(outcomes.filter((o) => o.status === 401 || o.status === 429)).toHaveLength(200);
    expect(outcomes.filter((o) => o.status === 429).length).toBeGreaterThan(0);
    expect(accepted.status).toBe(202);
    expect(memoryOf(pid).rssMb - before).toBeLessThan(100);
    expect(await countOf(target.url, 'sent-during-slow-uploads')).toBe(1);
  }, 60_000);

  it('holds 4 unverified bodies per address and UNVERIFIED_BODY_BYTES in all: 503 + Retry-After beyond, 401 once each is in', async () => {
    const body = Buffer.alloc(9 * MB, 0x20);
    const slow = (i: number, localAddress: string): Promise<Outcome> =>
      upload(target.url, { path: '/events', headers: unverifiedHeaders(i), body, localAddress, pauseMs: 100, chunkBytes: 256 * 1024 });
    // One address: 4 held, the 5th and 6th refused at once.
    const oneAddress = Array.from({ length: 6 }, (_, i) => slow(i, '127.0.0.7'));
    await sleep(1_000);
    // Four more addresses with one body each: 60 MB hold 6 bodies of 9 MB, so two of these are refused too.
    const others = ['127.0.0.8', '127.0.0.9', '127.0.0.10', '127.0.0.11'].map((a, i) => slow(10 + i, a));
    const health = await timedHealth(target.url);
    const outcomes = [...(await Promise.all(oneAddress)), ...(await Promise.all(others))];
    const refused = outcomes.filter((o) => o.status === 503);
    expect(refused).toHaveLength(4);
    expect(refused.every((o) => Number(o.headers['retry-after']) > 0)).toBe(true);
    // The bodies that were held arrived whole, matched no key and were refused: their bytes are given back.
    expect(outcomes.filter((o) => o.status === 401)).toHaveLength(6);
    expect(health.status).toBe(200);
    const again = await upload(target.url, {
      path: '/events',
      headers: unverifiedHeaders(99),
      body: Buffer.from('{}'),
      localAddress: '127.0.0.7',
    });
    expect(again.status).toBe(401);
  }, 90_000);
});
