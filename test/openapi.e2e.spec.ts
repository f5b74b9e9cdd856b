import { registeredRoutes as routesOf } from '@app/http';
import { http, startApp, type TestApp } from './support/test-app';

interface Operation {
  parameters?: Array<{ name: string; in: string }>;
  responses: Record<string, { headers?: Record<string, unknown> }>;
  security?: Array<Record<string, unknown>>;
}
type Document = { paths: Record<string, Record<string, Operation>>; components: { securitySchemes: Record<string, unknown> } };

describe('the OpenAPI document (/docs-json) and UI (/docs)', () => {
  let t: TestApp;
  let doc: Document;
  beforeAll(async () => {
    t = await startApp();
    const res = await http<Document>(`${t.url}/docs-json`);
    expect(res.status).toBe(200);
    doc = res.body;
  });
  afterAll(() => t.close());

  /** METHOD /path of every route the app registered (recorded by createHttpApp), in OpenAPI form. */
  function registeredRoutes(): string[] {
    const routes = routesOf(t.app);
    // /docs* is the document itself; wildcard routes are not API routes.
    return routes.filter((r) => !r.includes(' /docs') && !r.includes('*')).map((r) => r.replace(/:(\w+)/g, '{$1}'));
  }

  it('describes every route the app registers', () => {
    const documented = new Set(Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`)));
    const routes = registeredRoutes();
    expect(routes.length).toBeGreaterThanOrEqual(20);
    expect(routes.filter((r) => !documented.has(r))).toEqual([]);
  });

  it('names the three security schemes, and every protected operation uses them with 401 and 403', () => {
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['basic', 'hmac', 'jwt']);
    const publicPaths = ['/health', '/health/live', '/health/ready', '/metrics'];
    for (const [path, ops] of Object.entries(doc.paths)) {
      if (publicPaths.includes(path)) continue;
      for (const [method, op] of Object.entries(ops)) {
        expect([`${method} ${path}`, op.security?.length]).toEqual([`${method} ${path}`, 3]);
        expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['401', '403']));
        expect(op.parameters?.map((p) => p.name)).toEqual(
          expect.arrayContaining(['X-Service-Nonce', 'X-Service-Hash', 'X-Service-Instance']),
        );
      }
    }
  });

  it('documents the query parameters and X-Total-Count of the lists', () => {
    const terms = doc.paths['/search-terms'].get;
    expect(
      terms.parameters
        ?.filter((p) => p.in === 'query')
        .map((p) => p.name)
        .sort(),
    ).toEqual(['_end', '_start', 'hits', 'includeBotTraffic', 'language', 'since']);
    for (const path of ['/search-terms', '/notifications', '/entities/{type}']) {
      expect(doc.paths[path].get.responses['200'].headers).toHaveProperty('X-Total-Count');
    }
    expect(doc.paths['/notifications'].delete.parameters?.map((p) => p.name)).toContain('ids[]');
  });

  it('serves the UI without credentials', async () => {
    const res = await http<string>(`${t.url}/docs`);
    expect(res.status).toBe(200);
    expect(res.body).toContain('swagger');
  });
});
