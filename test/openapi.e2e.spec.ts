import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { fastifyRoutes } from './support/fastify-routes';
import { OUTSIDE_THE_CONTRACT } from './support/openapi-contract';
import { http, startApp, type TestApp } from './support/test-app';

interface Response {
  description: string;
  headers?: Record<string, { $ref?: string; required?: boolean }>;
  content?: Record<string, { schema: { $ref?: string } }>;
}
interface Operation {
  operationId?: string;
  summary?: string;
  tags?: string[];
  parameters?: Array<{ name?: string; in?: string; $ref?: string }>;
  requestBody?: unknown;
  responses: Record<string, Response>;
  security?: Array<Record<string, unknown>>;
}
interface Document {
  info: { version: string; license?: { name: string } };
  servers?: Array<{ url: string }>;
  tags: Array<{ name: string; description: string }>;
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, unknown>; parameters: Record<string, { in: string; name: string }> };
}

const ROOT = path.resolve(__dirname, '..');
const PUBLIC_PATHS = ['/health', '/health/live', '/health/ready', '/metrics'];
/** POST /1/events: the Insights protocol, with a collector key, answering Algolia's EventsResponse for every status. */
const INSIGHTS_EVENTS = 'post /1/events';

describe('the OpenAPI document (/docs-json) and UI (/docs)', () => {
  let t: TestApp;
  let doc: Document;
  let operations: Array<[string, Operation]>;
  beforeAll(async () => {
    t = await startApp();
    const res = await http<Document>(`${t.url}/docs-json`);
    expect(res.status).toBe(200);
    doc = res.body;
    operations = Object.entries(doc.paths).flatMap(([p, ops]) =>
      Object.entries(ops).map(([m, op]): [string, Operation] => [`${m} ${p}`, op]),
    );
  });
  afterAll(() => t.close());

  /** METHOD /path of every route the app serves, in OpenAPI form. */
  function registeredRoutes(): string[] {
    const routes = fastifyRoutes(t.app);
    // /docs* is the document itself; wildcard routes are not API routes; CORS preflights (OPTIONS /1/events) are
    // outside the contract.
    return routes
      .filter((r) => !r.includes(' /docs') && !r.includes('*') && !r.startsWith('OPTIONS '))
      .map((r) => r.replace(/:(\w+)/g, '{$1}'));
  }

  it('is the committed docs/openapi.json (run `npm run openapi` after changing a controller or DTO)', () => {
    const committed = JSON.parse(readFileSync(path.join(ROOT, 'docs/openapi.json'), 'utf8')) as Document;
    expect(doc).toEqual(committed);
  });

  it("has the package's version, a license and servers", () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(doc.info.version).toBe(pkg.version);
    expect(doc.info.license?.name).toBeTruthy();
    expect(doc.servers?.map((s) => s.url)).toEqual(['http://localhost:3000', 'https://{customer}.{baseDomain}']);
  });

  it('describes every route the app registers, but the dashboard page and the redirect of / to it', () => {
    const documented = new Set(operations.map(([key]) => key.replace(/^(\w+)/, (m) => m.toUpperCase())));
    const routes = registeredRoutes();
    expect(routes.length).toBeGreaterThanOrEqual(20);
    const api = routes.filter((r) => !OUTSIDE_THE_CONTRACT.dashboard(r.split(' ')[0], r.split(' ')[1]));
    expect(routes.filter((r) => !api.includes(r))).toEqual(['GET /', 'GET /dashboard', 'GET /dashboard/{file}']);
    expect(api.filter((r) => !documented.has(r))).toEqual([]);
    // And the other way round, so that routes the parser missed could not shrink the check unnoticed.
    expect([...documented].filter((r) => !api.includes(r))).toEqual([]);
  });

  it('gives every operation a unique operationId, a summary and one declared tag', () => {
    const declared = doc.tags.map((tag) => tag.name);
    for (const [key, op] of operations) {
      expect([key, typeof op.summary, op.tags?.length, declared.includes(op.tags?.[0] ?? '')]).toEqual([key, 'string', 1, true]);
    }
    const ids = operations.map(([, op]) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('marks public routes with security: [], the others with the three schemes, 401, 403 (not GET /instances), 429 and 503', () => {
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual([
      'analyticsApplication',
      'analyticsKey',
      'basic',
      'collectorApplication',
      'collectorKey',
      'hmac',
      'jwt',
    ]);
    for (const [key, op] of operations) {
      const path = key.split(' ')[1];
      if (PUBLIC_PATHS.includes(path)) {
        expect([key, op.security]).toEqual([key, []]);
        continue;
      }
      if (key === INSIGHTS_EVENTS) {
        expect(op.security).toEqual([{ collectorApplication: [], collectorKey: [] }]);
        expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['401', '403', '429', '503']));
        expect(op.responses['429'].headers?.['Retry-After']?.required).toBe(true);
        continue;
      }
      // Algolia's Analytics API also takes an analytics key, as Algolia's clients send it.
      const analyticsKey = path.startsWith('/2/') ? [{ analyticsApplication: [], analyticsKey: [] }] : [];
      expect([key, op.security]).toEqual([key, [...analyticsKey, { hmac: [] }, { basic: [] }, { jwt: [] }]]);
      // GET /instances needs a valid credential and no permission, so it cannot answer 403.
      const statuses = key === 'get /instances' ? ['401', '429', '503'] : ['401', '403', '429', '503'];
      expect([key, Object.keys(op.responses)]).toEqual([key, expect.arrayContaining(statuses)]);
      expect([key, '403' in op.responses]).toEqual([key, key !== 'get /instances']);
      expect(op.responses['429'].headers?.['Retry-After']?.required).toBe(true);
      // The HMAC and instance headers are the reusable parameters, referenced.
      expect(op.parameters?.filter((p) => p.$ref).map((p) => p.$ref)).toEqual([
        '#/components/parameters/X-Service-Nonce',
        '#/components/parameters/X-Service-Hash',
        '#/components/parameters/X-Service-Instance',
      ]);
    }
    expect(Object.values(doc.components.parameters).map((p) => `${p.in} ${p.name}`)).toEqual([
      'header X-Service-Nonce',
      'header X-Service-Hash',
      'header X-Service-Instance',
    ]);
  });

  it('gives every answer a schema and X-Request-Id, every error the error body; 400 only where there is input', () => {
    for (const [key, op] of operations) {
      const input = !key.startsWith('get ') || op.parameters?.some((p) => p.in === 'path' || p.in === 'query');
      expect([key, '400' in op.responses]).toEqual([key, input]);
      expect([key, Object.keys(op.responses)]).toEqual([key, expect.arrayContaining(key.startsWith('get ') ? ['413'] : ['413', '415'])]);
      for (const [status, response] of Object.entries(op.responses)) {
        const where = `${key} ${status}`;
        expect([where, response.headers?.['X-Request-Id']]).toEqual([where, { $ref: '#/components/headers/X-Request-Id' }]);
        // DELETE /1/usertokens/{userToken} answers as Algolia does: 204 without a body.
        if (status === '204') {
          expect([where, response.content]).toEqual([where, undefined]);
          continue;
        }
        const [type, media] = Object.entries(response.content ?? {})[0] ?? [];
        expect([where, typeof media?.schema]).toEqual([where, 'object']);
        if (Number(status) >= 400 && !PUBLIC_PATHS.includes(key.split(' ')[1])) {
          const body = key === INSIGHTS_EVENTS ? 'EventsResponse' : key.startsWith('get /2/') ? 'AlgoliaError' : 'ErrorBody';
          expect([where, type, media?.schema]).toEqual([where, 'application/json', { $ref: `#/components/schemas/${body}` }]);
        }
      }
    }
  });

  it("states POST /1/events' answer as Algolia does: EventsResponse allows no other property", () => {
    const { schemas } = (doc as unknown as { components: { schemas: Record<string, unknown> } }).components;
    expect(schemas.EventsResponse).toMatchObject({
      type: 'object',
      required: ['status', 'message'],
      additionalProperties: false,
    });
  });

  it('documents the query parameters and X-Total-Count of the lists', () => {
    const terms = doc.paths['/search-terms'].get;
    expect(
      terms.parameters
        ?.filter((p) => p.in === 'query')
        .map((p) => p.name)
        .sort(),
    ).toEqual([
      '_end',
      '_start',
      'compare',
      'engagement',
      'filters',
      'format',
      'from',
      'handled',
      'hits',
      'includeBotTraffic',
      'language',
      'order',
      'since',
      'sort',
      'tags',
      'to',
      'tz',
    ]);
    expect(Object.keys(terms.responses['200'].content ?? {})).toEqual(['application/json', 'text/csv']);
    for (const path of ['/search-terms', '/search-terms/{id}', '/search-stats']) {
      expect(doc.paths[path].get.responses['200'].headers?.['X-Data-Updated-At']?.required).toBe(false);
    }
    for (const path of ['/search-terms', '/search-breakdown', '/notifications', '/entities/{type}']) {
      expect(doc.paths[path].get.responses['200'].headers?.['X-Total-Count']?.required).toBe(true);
    }
    expect(doc.paths['/notifications'].delete.parameters?.map((p) => p.name)).toContain('ids[]');
  });

  it('serves the UI without credentials', async () => {
    const res = await http<string>(`${t.url}/docs`);
    expect(res.status).toBe(200);
    expect(res.body).toContain('swagger');
  });
});
