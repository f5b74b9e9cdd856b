import { basicHeader, http, startApp, type TestApp } from '../support/test-app';

/**
 * A client sending many requests at once with the right Basic password (a dashboard opening, a script) is served:
 * they share one hash, so neither the bound on hashing nor the failed-login limit refuses them.
 */
describe('many requests at once with the right Basic password', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({ PASSWORD_HASH_CONCURRENCY: '1', AUTH_FAILURES_PER_MINUTE: '10' });
  });
  afterAll(() => t.close());

  it('answers all 60 sent at once 200, and 60 with one wrong password at once 401 or 429, never hashing past the limit', async () => {
    const right = await Promise.all(Array.from({ length: 60 }, () => http(`${t.url}/notifications`, { headers: basicHeader() })));
    expect(right.map((r) => r.status)).toEqual(new Array(60).fill(200));
    const wrong = await Promise.all(
      Array.from({ length: 60 }, () =>
        http(`${t.url}/notifications`, { headers: basicHeader('admin', 'one-wrong-password'), localAddress: '127.0.0.4' }),
      ),
    );
    const count = (status: number) => wrong.filter((r) => r.status === status).length;
    expect(count(401) + count(429)).toBe(60);
    // Each failure counts, so the address is refused 429 afterwards, even with the right password.
    expect((await http(`${t.url}/notifications`, { headers: basicHeader(), localAddress: '127.0.0.4' })).status).toBe(429);
  });
});
