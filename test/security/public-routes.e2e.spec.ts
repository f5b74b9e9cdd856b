import { basicHeader, createKey, hmacHeaders, http, jwtHeader, startApp, type TestApp } from '../support/test-app';

const METRICS_TOKEN = 'metrics-token-0123456789';

describe('METRICS_TOKEN and DOCS_PUBLIC=false', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({ METRICS_TOKEN, DOCS_PUBLIC: 'false' });
  });
  afterAll(() => t.close());

  it('answers /metrics only with the token as a bearer token', async () => {
    const rule = 'This endpoint needs Authorization: Bearer with the metrics token (METRICS_TOKEN)';
    for (const headers of [{}, { authorization: 'Bearer wrong-token-0123456789' }, basicHeader()]) {
      const refused = await http<{ message: string }>(`${t.url}/metrics`, { headers });
      expect([refused.status, refused.body.message]).toEqual([401, rule]);
    }
    const ok = await http<string>(`${t.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(ok.status).toBe(200);
    expect(ok.body).toContain('# HELP');
  });

  it.each(['/docs', '/docs-json'])('answers %s 401 without credentials and 200 with any valid credential', async (path) => {
    const refused = await http(`${t.url}${path}`);
    expect(refused.status).toBe(401);
    expect((await http(`${t.url}${path}`, { headers: basicHeader() })).status).toBe(200);
    expect((await http(`${t.url}${path}`, { headers: jwtHeader({ permissions: [] }) })).status).toBe(200);
    const key = await createKey(t.url, ['search:read']);
    expect((await http(`${t.url}${path}`, { headers: hmacHeaders(key.secret) })).status).toBe(200);
  });

  it('keeps /health public', async () => {
    expect((await http(`${t.url}/health`)).status).toBe(200);
  });
});

describe('the defaults: /metrics and the docs are public', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  it.each(['/metrics', '/docs', '/docs-json'])('answers %s without credentials', async (path) => {
    expect((await http(`${t.url}${path}`)).status).toBe(200);
  });
});

describe('refusals before the body, seen from another origin', () => {
  let t: TestApp;
  const ORIGIN = 'https://shop.example';
  beforeAll(async () => {
    t = await startApp({ CORS_ORIGINS: ORIGIN });
  });
  afterAll(() => t.close());

  it('carry the CORS headers, so a browser reads the 401 and 415 instead of a network error', async () => {
    const refused = await http(`${t.url}/search-terms?since=1d`, { headers: { origin: ORIGIN } });
    expect(refused.status).toBe(401);
    expect(refused.headers['access-control-allow-origin']).toBe(ORIGIN);
    const untyped = await http(`${t.url}/events`, { method: 'POST', headers: { origin: ORIGIN, ...basicHeader() }, body: '{}' });
    expect(untyped.status).toBe(415);
    expect(untyped.headers['access-control-allow-origin']).toBe(ORIGIN);
  });

  it('serves /docs-yaml without credentials, as /docs and /docs-json', async () => {
    expect((await http(`${t.url}/docs-yaml`)).status).toBe(200);
  });
});
