import { ProvisioningService, type GeneratedCredentials } from '@app/auth';
import { basicHeader, hmacHeaders, http, jwtHeader, startApp, type TestApp } from './support/test-app';

describe('multi-customer mode with BASE_DOMAIN (e2e over HTTP)', () => {
  let t: TestApp;
  let shop1: GeneratedCredentials;
  let shop2: GeneratedCredentials;

  beforeAll(async () => {
    t = await startApp({ BASE_DOMAIN: 'api.example.test', SERVICE_BASIC_AUTH: '', SERVICE_LEGACY_SECRET: '' });
    // What `npm run cli -- customer:create` does.
    const provisioning = t.app.get(ProvisioningService);
    shop1 = await provisioning.createCustomer('shop1', ['live', 'stage']);
    shop2 = await provisioning.createCustomer('shop2', ['live']);
  });
  afterAll(() => t.close());

  const host = (customer: string) => ({ host: `${customer}.api.example.test` });
  const keys = (headers: Record<string, string>) => http<Array<{ description: string }>>(`${t.url}/secret`, { headers });

  it('serves each customer on its own host with its own Basic credentials', async () => {
    const res = await keys({ ...host('shop1'), ...basicHeader(shop1.basicLogin, shop1.basicPassword) });
    expect(res.status).toBe(200);
    expect(res.body.map((k) => k.description)).toEqual(['legacy secret']);
  });

  it("refuses another customer's Basic credentials", async () => {
    expect((await keys({ ...host('shop2'), ...basicHeader(shop1.basicLogin, shop1.basicPassword) })).status).toBe(401);
  });

  it("refuses another customer's API key", async () => {
    const created = await http<{ secret: string }>(`${t.url}/secret`, {
      method: 'POST',
      headers: { ...host('shop1'), ...basicHeader(shop1.basicLogin, shop1.basicPassword), 'content-type': 'application/json' },
      body: JSON.stringify({ description: 'reader', permissions: ['secret:read'] }),
    });
    expect(created.status).toBe(201);
    expect((await keys({ ...host('shop1'), ...hmacHeaders(created.body.secret) })).status).toBe(200);
    expect((await keys({ ...host('shop2'), ...hmacHeaders(created.body.secret) })).status).toBe(401);
  });

  it('refuses an unknown customer and a host outside BASE_DOMAIN', async () => {
    expect((await keys({ host: 'shop9.api.example.test', ...basicHeader(shop1.basicLogin, shop1.basicPassword) })).status).toBe(401);
    expect((await keys({ host: 'shop1.evil.test', ...basicHeader(shop1.basicLogin, shop1.basicPassword) })).status).toBe(401);
  });

  it('requires a JWT customer claim that matches the host', async () => {
    const claims = { permissions: ['secret.read'] };
    expect((await keys({ ...host('shop1'), ...jwtHeader({ ...claims, customer: 'shop1' }) })).status).toBe(200);
    expect((await keys({ ...host('shop1'), ...jwtHeader({ ...claims, customer: 'shop2' }) })).status).toBe(401);
    expect((await keys({ ...host('shop1'), ...jwtHeader(claims) })).status).toBe(401);
  });

  it("refuses an instance the customer does not have, though another customer has it", async () => {
    const headers = { ...host('shop2'), ...basicHeader(shop2.basicLogin, shop2.basicPassword) };
    expect((await keys({ ...headers, 'x-service-instance': 'stage' })).status).toBe(401);
    expect((await keys({ ...headers, 'x-service-instance': 'live' })).status).toBe(200);
  });
});
