import { ClickHouseService, chDateTime, nextVersion } from '@app/clickhouse';
import { HostResolver } from '../apps/query/src/webhooks/host-resolver';
import { basicHeader, createKey, hmacHeaders, http, startApp, type TestApp } from './support/test-app';
import { Receiver } from './support/receiver';

describe('PUT /configuration and notifications (private networks not allowed)', () => {
  let t: TestApp;
  let writer: { secret: string };
  beforeAll(async () => {
    t = await startApp({ WEBHOOK_TIMEOUT_MS: '1000' });
    writer = await createKey(t.url, ['configuration:write', 'configuration:read']);
  });
  afterAll(async () => {
    await t.close();
  });

  const putConfig = (url: string, headers?: Record<string, string>) => {
    const body = JSON.stringify({ webhookConfig: { url } });
    return http<{ message?: string; webhookConfig?: { url: string } }>(`${t.url}/configuration`, {
      method: 'PUT',
      headers: headers ?? hmacHeaders(writer.secret, body),
      body,
    });
  };
  const storedUrl = async () =>
    (await http<{ webhookConfig: { url: string } }>(`${t.url}/configuration`, { headers: basicHeader() })).body.webhookConfig.url;

  describe('PUT /configuration', () => {
    it('stores and returns the URL, signed with HMAC as docs/hmac.md shows', async () => {
      const res = await putConfig('https://hooks.example.com/in?token=abc');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ webhookConfig: { url: 'https://hooks.example.com/in?token=abc' }, alertConfig: null, algoliaIndexes: {} });
      expect(await storedUrl()).toBe('https://hooks.example.com/in?token=abc');
    });

    it.each([
      ['http://127.0.0.1:8080/hook', 'loopback, private or link-local'],
      ['http://[::1]/hook', 'loopback, private or link-local'],
      ['http://10.0.0.1/hook', 'loopback, private or link-local'],
      ['http://169.254.169.254/latest/meta-data', 'loopback, private or link-local'],
      ['http://[::ffff:192.168.1.1]/', 'loopback, private or link-local'],
      ['ftp://example.com/hook', 'absolute http(s) URL'],
      ['/relative/hook', 'absolute http(s) URL'],
      ['not a url', 'absolute http(s) URL'],
    ])('answers 400 for %p and keeps the stored URL', async (url, message) => {
      const before = await storedUrl();
      const res = await putConfig(url);
      expect(res.status).toBe(400);
      expect(res.body.message).toContain(message);
      expect(await storedUrl()).toBe(before);
    });

    it.each([
      ['http://10.0.0.1/alerts', 'alertConfig.url points to a loopback, private or link-local address'],
      ['http://[::1]/alerts', 'alertConfig.url points to a loopback, private or link-local address'],
      ['mailto:ops@example.com', 'alertConfig.url must be an absolute http(s) URL or ""'],
    ])('answers 400 for the alert URL %p under the webhook address rules, and stores nothing', async (url, message) => {
      const before = await storedUrl();
      const body = JSON.stringify({ webhookConfig: { url: 'https://hooks.example.com/other' }, alertConfig: { url } });
      const res = await http<{ message: string }>(`${t.url}/configuration`, {
        method: 'PUT',
        headers: hmacHeaders(writer.secret, body),
        body,
      });
      expect([res.status, res.body.message]).toEqual([400, message]);
      expect(await storedUrl()).toBe(before);
    });

    it.each([[{}], [{ webhookConfig: {} }], [{ webhookConfig: { url: 5 } }], [{ webhookConfig: 'x' }]])(
      'answers 400 for the body %p',
      async (payload) => {
        const body = JSON.stringify(payload);
        expect((await http(`${t.url}/configuration`, { method: 'PUT', headers: hmacHeaders(writer.secret, body), body })).status).toBe(400);
      },
    );

    it('refuses a wrong hash, an unknown instance and a key without configuration:write, and keeps the URL', async () => {
      const before = await storedUrl();
      const body = JSON.stringify({ webhookConfig: { url: 'https://evil.example.com/' } });
      const wrongHash = { ...hmacHeaders(writer.secret, body), 'x-service-hash': 'a'.repeat(64) };
      expect((await putConfig('https://evil.example.com/', wrongHash)).status).toBe(401);
      expect(
        (await putConfig('https://evil.example.com/', { ...hmacHeaders(writer.secret, body), 'x-service-instance': 'other-shop-live' }))
          .status,
      ).toBe(401);
      const reader = await createKey(t.url, ['configuration:read']);
      expect((await putConfig('https://evil.example.com/', hmacHeaders(reader.secret, body))).status).toBe(403);
      expect(await storedUrl()).toBe(before);
    });

    it('keeps the configuration per instance', async () => {
      const body = JSON.stringify({ webhookConfig: { url: 'https://stage.example.com/' } });
      expect(
        (
          await http(`${t.url}/configuration`, {
            method: 'PUT',
            headers: { ...hmacHeaders(writer.secret, body), 'x-service-instance': 'stage' },
            body,
          })
        ).status,
      ).toBe(200);
      const stage = await http<{ webhookConfig: { url: string } }>(`${t.url}/configuration`, {
        headers: { ...basicHeader(), 'x-service-instance': 'stage' },
      });
      expect(stage.body.webhookConfig.url).toBe('https://stage.example.com/');
      expect(await storedUrl()).not.toBe('https://stage.example.com/');
    });
  });

  describe('delivery to host names', () => {
    const latest = async () =>
      (await http<Array<{ message: string }>>(`${t.url}/notifications`, { headers: basicHeader() })).body[0]?.message;

    it('refuses at delivery a host name that resolves to 10.0.0.1 and leaves a notification', async () => {
      const resolver = t.app.get(HostResolver);
      const real = resolver.lookup.bind(resolver);
      jest
        .spyOn(resolver, 'lookup')
        .mockImplementation((host, options, callback) =>
          host === 'internal.example.test' ? callback(null, [{ address: '10.0.0.1', family: 4 }]) : real(host, options, callback),
        );
      expect((await putConfig('http://internal.example.test/hook')).status).toBe(200);
      expect(
        (
          await http(`${t.url}/entities/synonym/s1`, {
            method: 'PUT',
            headers: { ...basicHeader(), 'content-type': 'application/json' },
            body: '{}',
          })
        ).status,
      ).toBe(201);
      expect(await latest()).toBe('Webhook delivery to http://internal.example.test failed: the address is not public');
    });

    it('refuses at delivery localhost, which resolves to loopback, and never reaches the receiver', async () => {
      const receiver = await new Receiver().start();
      try {
        const port = new URL(receiver.url).port;
        expect((await putConfig(`http://localhost:${port}/hook`)).status).toBe(200);
        expect(
          (
            await http(`${t.url}/entities/synonym/s2`, {
              method: 'PUT',
              headers: { ...basicHeader(), 'content-type': 'application/json' },
              body: '{}',
            })
          ).status,
        ).toBe(201);
        expect(await latest()).toMatch(/^Webhook delivery to http:\/\/localhost:\d+ failed: the address is not public$/);
        expect(receiver.calls).toHaveLength(0);
      } finally {
        await receiver.stop();
      }
    });
  });

  describe('DELETE /notifications', () => {
    const total = async () => Number((await http(`${t.url}/notifications`, { headers: basicHeader() })).headers['x-total-count']);
    /** The newest `n` ids, paging 1,000 at a time (the page size limit). */
    const ids = async (n: number) => {
      const out: string[] = [];
      for (let start = 0; out.length < n; start += 1000) {
        const page = await http<Array<{ id: string }>>(`${t.url}/notifications?_start=${start}&_end=${start + 1000}`, {
          headers: basicHeader(),
        });
        out.push(...page.body.map((x) => x.id));
        if (page.body.length < 1000) {
          break;
        }
      }
      return out.slice(0, n);
    };
    const remove = (query: string) => http(`${t.url}/notifications${query}`, { method: 'DELETE', headers: basicHeader() });

    beforeAll(async () => {
      // 1,010 notifications, as the service would have written them.
      const ch = t.app.get(ClickHouseService);
      const base = Date.now() - 60_000;
      await ch.insert(
        'notifications',
        Array.from({ length: 1010 }, (_, i) => ({
          customer: 'demo',
          instance: 'live',
          id: `n-${String(i).padStart(4, '0')}`,
          version: nextVersion(),
          kind: 'webhook-failed',
          message: `m${i}`,
          details: '{}',
          deleted: false,
          created_at: chDateTime(base + i),
        })),
      );
    });

    it('lists newest first with X-Total-Count and exposes the header to browsers', async () => {
      const res = await http<Array<{ id: string }>>(`${t.url}/notifications?_start=0&_end=3`, { headers: basicHeader() });
      expect(res.status).toBe(200);
      expect(res.body).toHaveLength(3);
      expect(Number(res.headers['x-total-count'])).toBeGreaterThanOrEqual(1010);
      expect(res.headers['access-control-expose-headers']).toBe('X-Total-Count, X-Data-Updated-At, Retry-After');
      const times = (await http<Array<{ createdAt: string }>>(`${t.url}/notifications?_end=50`, { headers: basicHeader() })).body.map(
        (n) => n.createdAt,
      );
      expect(times).toEqual([...times].sort().reverse());
    });

    it.each([[1], [2], [1000]])('deletes exactly %p ids given as ids[]', async (n) => {
      const before = await total();
      const victims = (await ids(n + 5)).slice(5, 5 + n);
      expect(victims).toHaveLength(n);
      const res = await remove(`?${victims.map((id) => `ids[]=${id}`).join('&')}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true });
      expect(await total()).toBe(before - n);
      const left = new Set(await ids(2000));
      expect(victims.filter((id) => left.has(id))).toEqual([]);
    });

    it.each([['?ids=n-0001'], [''], ['?ids[key]=n-0001'], ['?ids[0][a]=x'], ['?other[]=n-0001']])(
      'answers 400 for %p and deletes nothing',
      async (query) => {
        const before = await total();
        const res = await remove(query);
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ statusCode: 400, message: 'ids must be an array, passed as ids[]=<id>&ids[]=<id>' });
        expect(await total()).toBe(before);
      },
    );

    it('ignores unknown ids and can delete the same ids twice', async () => {
      const [id] = await ids(1);
      const before = await total();
      expect((await remove(`?ids[]=${id}&ids[]=does-not-exist`)).status).toBe(200);
      expect((await remove(`?ids[]=${id}`)).status).toBe(200);
      expect(await total()).toBe(before - 1);
    });

    it('needs notifications:write', async () => {
      const reader = await createKey(t.url, ['notifications:read']);
      expect((await http(`${t.url}/notifications?ids[]=x`, { method: 'DELETE', headers: hmacHeaders(reader.secret) })).status).toBe(403);
      expect((await http(`${t.url}/notifications`, { headers: hmacHeaders(reader.secret) })).status).toBe(200);
    });
  });
});
