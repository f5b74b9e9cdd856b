import { LEGACY_SECRET, basicHeader, hmacHeaders, http, startApp, type TestApp } from './support/test-app';
describe('timing', () => {
  let t: TestApp;
  beforeAll(async () => { t = await startApp(); });
  afterAll(() => t.close());
  it('times', async () => {
    const now = Date.now();
    const events = Array.from({ length: 60 }, (_, i) => ({ phrase: `p${i % 7}`, language: 'de', hits: i % 3, ts: now - i * 3_000_000, userToken: `u${i}`, filters: ['brand:A', 'price<=10'], tags: ['bf'], country: 'DE' }));
    const body = JSON.stringify({ events });
    const sent = await http(`${t.url}/events`, { method: 'POST', headers: hmacHeaders(LEGACY_SECRET, body), body });
    expect(sent.status).toBe(202);
    for (const path of ['/search-breakdown?since=3d&by=filter_value', '/search-stats?since=3d', '/search-terms?since=3d&hits=all', '/search-terms?since=3d&tags=bf', '/search-breakdown?since=3d&by=country']) {
      const t0 = performance.now();
      for (let i = 0; i < 10; i++) await http(`${t.url}${path}`, { headers: basicHeader() });
      console.log(path, ((performance.now() - t0) / 10).toFixed(1), 'ms');
    }
  });
});
