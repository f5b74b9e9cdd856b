import { ApiKeysRepository, CustomersRepository, ProvisioningService, type GeneratedCredentials } from '@app/auth';
import { ClickHouseService, VersionClock } from '@app/clickhouse';
import { AppConfig } from '@app/config';
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

  it("answers 404 to revoking another customer's key, as for an unknown id, and does not list it", async () => {
    const created = await http<{ id: string; secret: string }>(`${t.url}/secret`, {
      method: 'POST',
      headers: { ...host('shop1'), ...basicHeader(shop1.basicLogin, shop1.basicPassword), 'content-type': 'application/json' },
      body: JSON.stringify({ description: 'shop1 only', permissions: ['secret:read'] }),
    });
    expect(created.status).toBe(201);
    const revoke = (id: string, headers: Record<string, string>) =>
      http<{ message: string }>(`${t.url}/secret/${id}`, { method: 'DELETE', headers: { ...host('shop2'), ...headers } });
    const unknownId = '00000000-0000-4000-8000-000000000000';
    for (const headers of [
      basicHeader(shop2.basicLogin, shop2.basicPassword),
      jwtHeader({ permissions: ['secret.write'], customer: 'shop2' }),
    ]) {
      const unknown = await revoke(unknownId, headers);
      const other = await revoke(created.body.id, headers);
      expect([other.status, other.body.message.replace(created.body.id, '<id>')]).toEqual([
        404,
        unknown.body.message.replace(unknownId, '<id>'),
      ]);
    }
    const shop2Keys = await keys({ ...host('shop2'), ...basicHeader(shop2.basicLogin, shop2.basicPassword) });
    expect(shop2Keys.body.map((k) => k.description)).not.toContain('shop1 only');
    expect((await keys({ ...host('shop1'), ...hmacHeaders(created.body.secret) })).status).toBe(200);
  });

  it("takes POST /1/events only with the Host's customer as the application id, and its own collector key", async () => {
    const created = await http<{ secret: string }>(`${t.url}/secret`, {
      method: 'POST',
      headers: { ...host('shop1'), ...basicHeader(shop1.basicLogin, shop1.basicPassword), 'content-type': 'application/json' },
      body: JSON.stringify({ description: 'storefront', preset: 'collector' }),
    });
    expect(created.status).toBe(201);
    const send = (customer: string, appId: string) =>
      http<{ status: number; message: string }>(
        `${t.url}/1/events?X-Algolia-Application-Id=${appId}&X-Algolia-API-Key=${created.body.secret}`,
        {
          method: 'POST',
          headers: { ...host(customer), 'content-type': 'application/json' },
          body: JSON.stringify({ events: [{ eventType: 'view', eventName: 'v', index: 'i', objectIDs: ['a'] }] }),
        },
      );
    expect((await send('shop1', 'shop1')).body).toEqual({ status: 200, message: 'OK' });
    expect((await send('shop1', 'shop2')).status).toBe(401);
    expect((await send('shop2', 'shop1')).status).toBe(401);
    expect((await send('shop2', 'shop2')).status).toBe(401);
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

  it('refuses an instance the customer does not have, though another customer has it', async () => {
    const headers = { ...host('shop2'), ...basicHeader(shop2.basicLogin, shop2.basicPassword) };
    expect((await keys({ ...headers, 'x-service-instance': 'stage' })).status).toBe(401);
    expect((await keys({ ...headers, 'x-service-instance': 'live' })).status).toBe(200);
  });
});

describe('unknown Host labels with BASE_DOMAIN (negative cache)', () => {
  let t: TestApp;
  let customerLookups: () => number;
  beforeAll(async () => {
    t = await startApp({ BASE_DOMAIN: 'api.example.test', SERVICE_BASIC_AUTH: '', SERVICE_LEGACY_SECRET: '' });
    await t.app.get(ProvisioningService).createCustomer('shop1', ['live']);
    // Counts the storage queries that read the customers table; the queries still run (a spy, not a stub).
    const query = jest.spyOn(t.app.get(ClickHouseService), 'query');
    customerLookups = () => query.mock.calls.filter(([sql]) => sql.includes(t.app.get(ClickHouseService).table('customers'))).length;
  });
  afterAll(() => t.close());

  const keys = (label: string, headers: Record<string, string> = basicHeader()) =>
    http(`${t.url}/secret`, { headers: { host: `${label}.api.example.test`, ...headers } });

  it('costs at most one storage lookup within 5 s, however many requests and labels arrive', async () => {
    const before = customerLookups();
    const started = Date.now();
    // 20 at once, then the same label and a new one every 200 ms for 3.5 s.
    const statuses = (await Promise.all(Array.from({ length: 20 }, () => keys('nosuch')))).map((r) => r.status);
    for (let i = 0; Date.now() - started < 3_500; i++) {
      statuses.push((await keys('nosuch')).status, (await keys(`nosuch-${i}`)).status);
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(statuses.length).toBeGreaterThan(40);
    expect(new Set(statuses)).toEqual(new Set([401]));
    expect(customerLookups() - before).toBeLessThanOrEqual(1);
  });

  it('serves a customer created by another process within 5 s', async () => {
    await keys('shop2');
    // Another process (the CLI's customer:create on a ClickHouse server): its own repositories, the same storage.
    const ch = t.app.get(ClickHouseService);
    const other = new ProvisioningService(
      t.app.get(AppConfig),
      new CustomersRepository(ch, new VersionClock(ch)),
      new ApiKeysRepository(ch, new VersionClock(ch)),
    );
    const shop2 = await other.createCustomer('shop2', ['live']);
    const created = Date.now();
    let status = 0;
    while (Date.now() - created < 6_000 && status !== 200) {
      status = (await keys('shop2', basicHeader(shop2.basicLogin, shop2.basicPassword))).status;
      if (status !== 200) {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    expect(status).toBe(200);
    expect(Date.now() - created).toBeLessThan(5_000);
  });
});
