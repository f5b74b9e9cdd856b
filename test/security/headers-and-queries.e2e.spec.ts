import { lazyQuery, parseQuery } from '@app/http';
import { basicHeader, http, startApp, type TestApp } from '../support/test-app';

/**
 * Headers and query strings that cost the service more than the sender (docs/security.md): an `Accept` header is
 * negotiated only up to 1,024 bytes, and a query string is parsed only up to 64 KB and one level of brackets, before
 * any credential is checked. The mechanisms with small inputs; their costs are in `npm run bench:attacks`.
 */
describe('headers and query strings (e2e over HTTP)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  describe('Accept', () => {
    it('refuses an Accept header over 1,024 bytes with a 400 naming it', async () => {
      const res = await http<{ message: string }>(`${t.url}/search-terms?since=1d`, {
        headers: { ...basicHeader(), accept: `"${','.repeat(1024)}` },
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/^Accept/);
    });

    it('still selects CSV by Accept: text/csv and by format=csv, and JSON by default', async () => {
      const byHeader = await http<string>(`${t.url}/search-terms?since=1d`, { headers: { ...basicHeader(), accept: 'text/csv' } });
      expect([byHeader.status, byHeader.headers['content-type']]).toEqual([200, 'text/csv; charset=utf-8']);
      const byParameter = await http<string>(`${t.url}/search-terms?since=1d&format=csv`, { headers: basicHeader() });
      expect([byParameter.status, byParameter.headers['content-type']]).toEqual([200, 'text/csv; charset=utf-8']);
      const longButFine = `application/json;q=0.9, ${'text/x-other;q=0.1, '.repeat(40)}text/csv;q=1`;
      expect(longButFine.length).toBeLessThanOrEqual(1024);
      const negotiated = await http<string>(`${t.url}/search-terms?since=1d`, { headers: { ...basicHeader(), accept: longButFine } });
      expect([negotiated.status, negotiated.headers['content-type']]).toEqual([200, 'text/csv; charset=utf-8']);
      const json = await http<unknown[]>(`${t.url}/search-terms?since=1d`, { headers: basicHeader() });
      expect([json.status, json.headers['content-type']]).toEqual([200, 'application/json; charset=utf-8']);
    });
  });

  describe('query strings', () => {
    it('answers 414 to a query string over 8 KB (64 KB on DELETE), before credentials (a public route too)', async () => {
      for (const [method, route, bytes] of [
        ['GET', '/health/live', 8 * 1024],
        ['GET', '/search-terms', 8 * 1024],
        ['POST', '/1/events', 8 * 1024],
        ['DELETE', '/notifications', 64 * 1024],
      ] as const) {
        const res = await http<{ message: string }>(`${t.url}${route}?a=${'x'.repeat(bytes - 1)}`, { method });
        expect([method, route, res.status]).toEqual([method, route, 414]);
        expect(JSON.stringify(res.body)).toMatch(/query string is longer than/);
      }
      // Within the limit: parsed, and answered by the route (a public one: 200).
      expect((await http(`${t.url}/health/live?a=${'x'.repeat(8 * 1024 - 3)}`)).status).toBe(200);
    });

    it('parses one level of brackets: ids[] works, what lies deeper stays one key', async () => {
      const ids = Array.from({ length: 1000 }, (_, i) => `ids[]=n-${i}`).join('&');
      const deleted = await http(`${t.url}/notifications?${ids}`, { method: 'DELETE', headers: basicHeader() });
      expect([deleted.status, deleted.body]).toEqual([200, { ok: true }]);
      expect(parseQuery('a[b][c][d]=1&ids[]=x&ids[]=y')).toEqual({ a: { b: { '[c][d]': '1' } }, ids: ['x', 'y'] });
      expect(parseQuery(`a=${'x'.repeat(64 * 1024)}`)).toEqual({});
      // As the router hands it to a route: parsed when read, and read like the parsed object.
      const lazy = lazyQuery('since=7d&ids[]=x&ids[]=y');
      expect([Object.keys(lazy), { ...lazy }, JSON.parse(JSON.stringify(lazy)), 'ids' in lazy]).toEqual([
        ['since', 'ids'],
        { since: '7d', ids: ['x', 'y'] },
        { since: '7d', ids: ['x', 'y'] },
        true,
      ]);
    });

    it('answers every GET route with deep and wide query shapes without a 5xx', async () => {
      const shapes = [
        Array.from({ length: 20 }, (_, i) => `since${'[a]'.repeat(i)}=1`).join('&'),
        Array.from({ length: 3000 }, (_, i) => `k${i}[x][y]=1`).join('&'),
        'ids[][][]=1&__proto__[x]=1&constructor[prototype][x]=1',
      ];
      for (const route of ['/search-terms', '/search-stats', '/search-terms/x', '/notifications', '/annotations', '/instances']) {
        for (const shape of shapes) {
          const res = await http(`${t.url}${route}?${shape}`, { headers: basicHeader() });
          expect([route, res.status < 500]).toEqual([route, true]);
        }
      }
    });
  });
});
