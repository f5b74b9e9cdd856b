import { HostResolver } from '../../apps/query/src/webhooks/host-resolver';
import { basicHeader, http, startApp, type TestApp } from '../support/test-app';

/**
 * A failed webhook delivery is recorded as a notification that anyone with `notifications:read` reads: it names a
 * generic reason, never what the service's own resolver answered (an internal address, a DNS error code). The
 * detail goes to the log only (docs/security.md).
 */
describe('webhook failure notifications (e2e over HTTP)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({ WEBHOOK_TIMEOUT_MS: '1000' });
  });
  afterAll(() => t.close());

  const deliverTo = async (url: string, entity: string) => {
    const body = JSON.stringify({ webhookConfig: { url } });
    const headers = { ...basicHeader(), 'content-type': 'application/json' };
    expect((await http(`${t.url}/configuration`, { method: 'PUT', headers, body })).status).toBe(200);
    expect((await http(`${t.url}/entities/synonym/${entity}`, { method: 'PUT', headers, body: '{}' })).status).toBe(201);
    return (await http<Array<{ message: string }>>(`${t.url}/notifications`, { headers: basicHeader() })).body[0]?.message;
  };

  it.each([
    ['an internal name', 'vm.internal.test', null, 'the address is not public'],
    ['an unknown name', 'nowhere.internal.test', 'ENOTFOUND', 'the host did not answer'],
  ])('names a generic reason for %s', async (_case, host, code, reason) => {
    const resolver = t.app.get(HostResolver);
    const real = resolver.lookup.bind(resolver);
    const lookup = jest.spyOn(resolver, 'lookup').mockImplementation((name, options, callback) => {
      if (name !== host) {
        return real(name, options, callback);
      }
      if (code) {
        return callback(Object.assign(new Error(`getaddrinfo ${code} ${name}`), { code }), []);
      }
      return callback(null, [{ address: '127.0.0.1', family: 4 }]);
    });
    try {
      const message = await deliverTo(`http://${host}:9/x`, host.split('.')[0]);
      expect(message).toBe(`Webhook delivery to http://${host}:9 failed: ${reason}`);
      expect(message).not.toMatch(/127\.0\.0\.1|ENOTFOUND|resolves/);
    } finally {
      lookup.mockRestore();
    }
  });
});
