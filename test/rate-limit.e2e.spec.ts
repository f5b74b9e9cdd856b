import { ProvisioningService, type GeneratedCredentials } from '@app/auth';
import { basicHeader, createKey, hmacHeaders, http, startApp, type TestApp } from './support/test-app';

const BASE_DOMAIN = 'api.example.test';
const host = (c: GeneratedCredentials) => ({ host: `${c.customer}.${BASE_DOMAIN}` });

describe('rate limiting per customer', () => {
  let t: TestApp;
  let shop1: GeneratedCredentials;
  let shop2: GeneratedCredentials;
  beforeAll(async () => {
    t = await startApp({ BASE_DOMAIN, SERVICE_BASIC_AUTH: '', SERVICE_LEGACY_SECRET: '', RATE_LIMIT_PER_MINUTE: '5' });
    shop1 = await t.app.get(ProvisioningService).createCustomer('shop1', ['live']);
    shop2 = await t.app.get(ProvisioningService).createCustomer('shop2', ['live']);
  });
  afterAll(() => t.close());

  const get = (c: GeneratedCredentials, path = '/secret') =>
    http(`${t.url}${path}`, { headers: { ...host(c), ...basicHeader(c.basicLogin, c.basicPassword) } });

  it('answers 429 with Retry-After past the limit, and the other customer is not affected', async () => {
    for (let i = 0; i < 5; i++) {
      expect((await get(shop1)).status).toBe(200);
    }
    const limited = await get(shop1);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.body).toMatchObject({
      statusCode: 429,
      message: 'Too many requests: at most 5 a minute for this customer (RATE_LIMIT_PER_MINUTE); retry after Retry-After seconds',
    });
    expect((await get(shop2)).status).toBe(200);
  });

  it('never limits the probes', async () => {
    for (let i = 0; i < 10; i++) {
      expect((await http(`${t.url}/health`)).status).toBe(200);
    }
  });
});

describe('failed authentication is limited apart, per client address', () => {
  let t: TestApp;
  let shop1: GeneratedCredentials;
  let shop2: GeneratedCredentials;
  let secret: string;
  beforeAll(async () => {
    t = await startApp({
      BASE_DOMAIN,
      SERVICE_BASIC_AUTH: '',
      SERVICE_LEGACY_SECRET: '',
      RATE_LIMIT_PER_MINUTE: '30',
      AUTH_FAILURES_PER_MINUTE: '10',
    });
    shop1 = await t.app.get(ProvisioningService).createCustomer('shop1', ['live']);
    shop2 = await t.app.get(ProvisioningService).createCustomer('shop2', ['live']);
    secret = (await createKey(t.url, ['secret:read'], { ...host(shop1), ...basicHeader(shop1.basicLogin, shop1.basicPassword) })).secret;
  });
  afterAll(() => t.close());

  // Linux routes all of 127.0.0.0/8 to loopback: each address is a distinct client.
  const ATTACKER = '127.0.0.2';
  const CUSTOMER = '127.0.0.1';
  const signed = (c: GeneratedCredentials, key: string, localAddress: string) =>
    http(`${t.url}/secret`, { headers: { ...host(c), ...hmacHeaders(key) }, localAddress });

  it("40 bad signatures from one address never make the customer's valid requests from another address a 429", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) {
      statuses.push((await signed(shop1, 'not-the-secret-0123456789', ATTACKER)).status);
    }
    expect(statuses).toEqual([...Array<number>(10).fill(401), ...Array<number>(30).fill(429)]);
    expect((await signed(shop1, secret, CUSTOMER)).status).toBe(200);
  });

  it('answers the address over its failure limit 429 with Retry-After, even with valid credentials, and only that address', async () => {
    const limited = await signed(shop1, secret, ATTACKER);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(limited.body).toEqual({
      statusCode: 429,
      error: 'Too Many Requests',
      message: expect.stringMatching(/failed authentications from this address/) as unknown,
    });
    expect((await signed(shop1, secret, '127.0.0.3')).status).toBe(200);
  });

  it("failed authentications never spend the customer's budget; authenticated requests do", async () => {
    const basic = (password: string, localAddress: string) =>
      http(`${t.url}/secret`, { headers: { ...host(shop2), ...basicHeader(shop2.basicLogin, password) }, localAddress });
    for (let i = 0; i < 40; i++) {
      await basic('wrong-password', '127.0.0.4');
    }
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      statuses.push((await basic(shop2.basicPassword, CUSTOMER)).status);
    }
    expect(statuses).toEqual([...Array<number>(30).fill(200), 429]);
  });

  it('counts an unknown customer (Host label) as a failed authentication of the address', async () => {
    const unknown = () =>
      http(`${t.url}/secret`, { headers: { host: `nosuch.${BASE_DOMAIN}`, ...basicHeader() }, localAddress: '127.0.0.5' });
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      statuses.push((await unknown()).status);
    }
    expect(statuses).toEqual([...Array<number>(10).fill(401), 429]);
  });
});
