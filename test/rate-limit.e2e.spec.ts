import { ProvisioningService, type GeneratedCredentials } from '@app/auth';
import { basicHeader, http, startApp, type TestApp } from './support/test-app';

describe('rate limiting per customer', () => {
  let t: TestApp;
  let shop1: GeneratedCredentials;
  let shop2: GeneratedCredentials;
  beforeAll(async () => {
    t = await startApp({ BASE_DOMAIN: 'api.example.test', SERVICE_BASIC_AUTH: '', SERVICE_LEGACY_SECRET: '', RATE_LIMIT_PER_MINUTE: '5' });
    shop1 = await t.app.get(ProvisioningService).createCustomer('shop1', ['live']);
    shop2 = await t.app.get(ProvisioningService).createCustomer('shop2', ['live']);
  });
  afterAll(() => t.close());

  const get = (c: GeneratedCredentials, path = '/secret') => http(`${t.url}${path}`, { headers: { host: `${c.customer}.api.example.test`, ...basicHeader(c.basicLogin, c.basicPassword) } });

  it('answers 429 with Retry-After past the limit, and the other customer is not affected', async () => {
    for (let i = 0; i < 5; i++) expect((await get(shop1)).status).toBe(200);
    const limited = await get(shop1);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.body).toMatchObject({ statusCode: 429 });
    expect((await get(shop2)).status).toBe(200);
  });

  it('counts requests with bad credentials too, and never limits the probes', async () => {
    const bad = { ...shop2, basicPassword: 'wrong-password' };
    for (let i = 0; i < 5; i++) await get(bad);
    expect((await get(shop2)).status).toBe(429);
    for (let i = 0; i < 10; i++) expect((await http(`${t.url}/health`)).status).toBe(200);
  });
});
