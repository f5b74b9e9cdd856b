import fc from 'fast-check';
import { LEGACY_SECRET, basicHeader, hmacHeaders, http, startApp, type TestApp } from './support/test-app';

const PATHS = [
  '/secret',
  '/secret/00000000-0000-4000-8000-000000000000',
  '/secret/x',
  '/events',
  '/documents',
  '/search-terms',
  '/ranking-mix-config/check-data',
  '/configuration',
  '/notifications',
  '/entities/menu',
  '/entities/menu/m1',
  '/entities/landingpage/p%00',
  '/entities/bogus/1',
  '/health',
  '/health/ready',
  '/metrics',
  '/docs-json',
  '/nope',
];
const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'];

const queryKey = fc.oneof(
  fc.constantFrom('since', '_start', '_end', 'hits', 'language', 'includeBotTraffic', 'ids[]', 'ids', 'ids[a]', 'autosave', 'ids[0][x]'),
  fc.string({ maxLength: 8 }),
);
const queryValue = fc.oneof(
  fc.constantFrom('1d', '0', '-1', '1000', '99999999999999999999', 'true', 'yes', 'de', '%', '%E0%A4%A', ''),
  fc.string({ maxLength: 20 }),
);
const pairs = fc
  .array(fc.tuple(queryKey, queryValue), { maxLength: 6 })
  .map((list) => list.map(([k, v]) => `${encodeURIComponent(k).replace(/%5B/g, '[').replace(/%5D/g, ']')}=${v}`));
/** qs shapes an attacker sends: keys nested deep (a[b][c]..., ids[][][]), and wide (thousands of ids[] or keys). */
const deepKey = fc
  .tuple(
    fc.constantFrom('since', 'ids', 'hits', 'a'),
    fc.array(fc.constantFrom('[]', '[0]', '[x]', '[__proto__]', '[constructor]'), { minLength: 2, maxLength: 30 }),
  )
  .map(([k, brackets]) => `${k}${brackets.join('')}=1`);
const wide = fc
  .tuple(fc.constantFrom('ids[]', 'since', 'k'), fc.integer({ min: 100, max: 3000 }))
  .map(([k, n]) => Array.from({ length: n }, (_, i) => `${k === 'k' ? `k${i}` : k}=${i}`));
const query = fc
  .oneof(pairs, fc.array(deepKey, { minLength: 1, maxLength: 5 }), wide)
  .map((list) => (list.length ? `?${list.join('&')}` : ''));

/** Strings the store refuses or that often break pipelines: fast-check's default strings never hold lone surrogates. */
const poison = fc
  .tuple(
    fc.string({ maxLength: 8 }),
    fc.constantFrom('\ud83d', '\udc00', '\u0000', '\ud83d\ud83d', '\uffff', '\u202e'),
    fc.string({ maxLength: 8 }),
  )
  .map(([a, p, b]) => a + p + b);
const poisonEvent = fc.record(
  {
    phrase: fc.oneof(poison, fc.constant('ok')),
    language: fc.oneof(poison, fc.constant('en')),
    hits: fc.constant(1),
    userAgent: poison,
    sessionId: poison,
    id: poison,
  },
  { requiredKeys: ['phrase', 'language', 'hits'] },
);
const deep = fc.integer({ min: 100, max: 5000 }).map((n) => '['.repeat(n) + ']'.repeat(n));
const body = fc.oneof(
  fc.constant(undefined),
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
  fc.record({ events: fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 5 }) }).map((v) => JSON.stringify(v)),
  fc
    .record({
      documents: fc.array(fc.dictionary(fc.constantFrom('id', 'rating', 'new', 'deleted', 'language'), fc.jsonValue({ maxDepth: 1 })), {
        maxLength: 5,
      }),
    })
    .map((v) => JSON.stringify(v)),
  fc.record({ webhookConfig: fc.record({ url: fc.oneof(fc.webUrl(), fc.string()) }) }).map((v) => JSON.stringify(v)),
  fc
    .record({ items: fc.array(fc.record({ id: fc.string({ maxLength: 10 }), searchPhrases: fc.array(fc.string()) }), { maxLength: 3 }) })
    .map((v) => JSON.stringify(v)),
  fc.record({ events: fc.array(poisonEvent, { minLength: 1, maxLength: 5 }) }).map((v) => JSON.stringify(v)),
  fc
    .record({
      documents: fc.array(fc.record({ id: poison, language: fc.oneof(poison, fc.constant('de')), rating: fc.constant(0.5) }), {
        minLength: 1,
        maxLength: 5,
      }),
    })
    .map((v) => JSON.stringify(v)),
  deep,
  fc.integer({ min: 1, max: 2_000_000 }).map((n) => JSON.stringify({ description: 'x'.repeat(n) })),
  fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
);
const headers = fc.record(
  {
    'content-type': fc.constantFrom(
      'application/json',
      'text/plain',
      'application/json; charset=latin1',
      'application/x-www-form-urlencoded',
      '',
    ),
    'x-service-instance': fc.oneof(
      fc.constantFrom('live', 'stage', 'nope', ''),
      fc.string({ maxLength: 10 }).map((s) => s.replace(/[^\x21-\x7e]/g, '')),
    ),
    auth: fc.constantFrom('basic', 'hmac', 'garbage', 'none'),
  },
  { requiredKeys: ['auth'] },
);

describe('fuzzing every endpoint over HTTP (fast-check)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({ RATE_LIMIT_PER_MINUTE: '0' });
  });
  afterAll(() => t.close());

  it('answers every request with a 4xx or a documented success, never a 5xx or a hang, and keeps working', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...METHODS),
        fc.constantFrom(...PATHS),
        query,
        body,
        headers,
        async (method, path, q, payload, h) => {
          const sent: Record<string, string> = {};
          if (h['content-type']) {
            sent['content-type'] = h['content-type'];
          }
          if (h['x-service-instance']) {
            sent['x-service-instance'] = h['x-service-instance'];
          }
          const raw = payload === undefined ? '' : payload;
          if (h.auth === 'basic') {
            Object.assign(sent, basicHeader());
          }
          if (h.auth === 'hmac') {
            Object.assign(sent, {
              ...hmacHeaders(LEGACY_SECRET, raw),
              ...(h['content-type'] !== undefined ? { 'content-type': h['content-type'] } : {}),
            });
          }
          if (h.auth === 'garbage') {
            sent.authorization = 'Bearer not.a.token';
          }
          const started = Date.now();
          const res = await Promise.race([
            http(`${t.url}${path}${q}`, { method, headers: sent, body: method === 'GET' || payload === undefined ? undefined : payload }),
            new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer within 5 s: ${method} ${path}${q}`)), 5000)),
          ]);
          expect([`${method} ${path}${q}`, res.status < 500]).toEqual([`${method} ${path}${q}`, true]);
          expect(Date.now() - started).toBeLessThan(5000);
        },
      ),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 150) },
    );
    expect((await http(`${t.url}/health`)).status).toBe(200);
    expect((await http(`${t.url}/search-terms`, { headers: basicHeader() })).status).toBe(200);
  }, 300_000);

  it('answers every poison item of POST /events and PUT /documents as accepted or rejected, never a 5xx', async () => {
    const poisonBody = fc.oneof(
      fc
        .record({ events: fc.array(poisonEvent, { minLength: 1, maxLength: 5 }) })
        .map((v) => ['POST', '/events', v.events.length, JSON.stringify(v)] as const),
      fc
        .record({ documents: fc.array(fc.record({ id: poison, rating: fc.constant(0.5) }), { minLength: 1, maxLength: 5 }) })
        .map((v) => ['PUT', '/documents', v.documents.length, JSON.stringify(v)] as const),
    );
    await fc.assert(
      fc.asyncProperty(poisonBody, async ([method, path, items, body]) => {
        const res = await http<{ accepted: number; rejected: unknown[] }>(`${t.url}${path}`, {
          method,
          headers: hmacHeaders(LEGACY_SECRET, body),
          body,
        });
        expect([res.status, res.body.accepted + res.body.rejected.length]).toEqual([202, items]);
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 150) },
    );
  }, 300_000);
});
