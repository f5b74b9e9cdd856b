import { LEGACY_SECRET, createKey, hmacHeaders, http, nonce, startApp, type TestApp } from './support/test-app';
import { signRequest } from '@app/auth';

describe('HMAC authentication (e2e over HTTP)', () => {
  let t: TestApp;
  let admin: { id: string; secret: string };
  const body = JSON.stringify({ description: 'made by hmac', permissions: ['secret:read'] });

  beforeAll(async () => {
    t = await startApp();
    admin = await createKey(t.url, ['secret:read', 'secret:write']);
  });
  afterAll(() => t.close());

  const post = (headers: Record<string, string>, sent = body) => http(`${t.url}/secret`, { method: 'POST', headers, body: sent });

  it('accepts a request signed over nonce:body with an active key', async () => {
    const res = await post(hmacHeaders(admin.secret, body));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ description: 'made by hmac', permissions: ['secret:read'] });
  });

  it('accepts an empty-body GET signed over "nonce:"', async () => {
    const n = nonce();
    const res = await http<Array<{ description: string }>>(`${t.url}/secret`, {
      headers: { 'x-service-nonce': n, 'x-service-hash': signRequest(admin.secret, n, '') },
    });
    expect(res.status).toBe(200);
    expect(res.body.map((k) => k.description)).toContain('legacy secret');
  });

  it('accepts the hash written in upper case', async () => {
    const h = hmacHeaders(admin.secret, body);
    expect((await post({ ...h, 'x-service-hash': h['x-service-hash'].toUpperCase() })).status).toBe(201);
  });

  it('refuses the hash of another body', async () => {
    const res = await post(hmacHeaders(admin.secret, JSON.stringify({ description: 'other', permissions: ['secret:read'] })));
    expect(res.status).toBe(401);
    expect(res.body).toEqual({
      statusCode: 401,
      error: 'Unauthorized',
      message:
        "X-Service-Hash matches no active API key: it must be the hex HMAC-SHA256 of nonce + ':' + the raw body (an empty string " +
        "for no body), keyed with the key's secret",
    });
  });

  it('refuses a body with one byte changed after signing', async () => {
    const tampered = body.replace('made by hmac', 'made by hmaC');
    expect(tampered).toHaveLength(body.length);
    expect((await post(hmacHeaders(admin.secret, body), tampered)).status).toBe(401);
  });

  it('refuses a signature made with a key the customer does not have', async () => {
    expect((await post(hmacHeaders('f'.repeat(64), body))).status).toBe(401);
  });

  it('refuses a revoked key at once on the process that revoked it', async () => {
    const key = await createKey(t.url, ['secret:read']);
    const get = () => http(`${t.url}/secret`, { headers: hmacHeaders(key.secret) });
    expect((await get()).status).toBe(200);
    const del = await http(`${t.url}/secret/${key.id}`, { method: 'DELETE', headers: hmacHeaders(admin.secret) });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ ok: true });
    expect((await get()).status).toBe(401);
  });

  it('accepts a nonce once', async () => {
    const h = hmacHeaders(admin.secret, body);
    expect((await post(h)).status).toBe(201);
    expect((await post(h)).status).toBe(401);
  });

  it.each([['x-service-nonce'], ['x-service-hash']])('refuses a request without %s', async (missing) => {
    const h = hmacHeaders(admin.secret, body);
    delete h[missing];
    expect((await post(h)).status).toBe(401);
  });

  it('refuses an unknown instance and accepts a known one', async () => {
    expect((await post({ ...hmacHeaders(admin.secret, body), 'x-service-instance': 'nope' })).status).toBe(401);
    expect((await post({ ...hmacHeaders(admin.secret, body), 'x-service-instance': 'stage' })).status).toBe(201);
  });

  it('answers 403 naming the permission when the key lacks it', async () => {
    const res = await post(hmacHeaders(LEGACY_SECRET, body));
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ statusCode: 403, error: 'Forbidden', message: 'This credential lacks the permission secret:write' });
  });

  it('does not let a key grant permissions it does not hold', async () => {
    const escalate = JSON.stringify({ description: 'escalate', permissions: ['search:read'] });
    const res = await post(hmacHeaders(admin.secret, escalate), escalate);
    expect(res.status).toBe(403);
    expect((res.body as { message: string }).message).toContain('search:read');
  });
});
