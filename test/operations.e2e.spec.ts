import { LEGACY_SECRET, basicHeader, hmacHeaders, http, startApp, type TestApp } from './support/test-app';
import { Receiver } from './support/receiver';

describe('probes and Prometheus metrics', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
  });
  afterAll(() => t.close());

  const metrics = async () => {
    const res = await http<string>(`${t.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    return res.body;
  };

  it('answers liveness and readiness without credentials', async () => {
    expect((await http(`${t.url}/health/live`)).body).toEqual({ status: 'ok' });
    const ready = await http(`${t.url}/health/ready`);
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ok', storage: 'up', migrated: true });
  });

  it('counts accepted and rejected events, the rejection reason folded into a bounded label', async () => {
    const body = JSON.stringify({
      events: [
        { phrase: 'm', language: 'en', hits: 1 },
        { phrase: 'n', language: 'en', hits: -1 },
        { phrase: 'o', language: 'en', hits: 1, colour: 'red' },
      ],
    });
    expect((await http(`${t.url}/events`, { method: 'POST', headers: hmacHeaders(LEGACY_SECRET, body), body })).status).toBe(202);
    const text = await metrics();
    expect(text).toMatch(/ingest_items_accepted_total\{kind="search-event",source="http"\} 1\n/);
    expect(text).toMatch(/ingest_items_rejected_total\{kind="search-event",source="http",reason="hits must be an integer >= N"\} 1\n/);
    expect(text).toMatch(/ingest_items_rejected_total\{kind="search-event",source="http",reason="unknown field"\} 1\n/);
    expect(text).toMatch(/clickhouse_insert_seconds_count\{table="search_events"\} [1-9]/);
  });

  it('times HTTP requests by route pattern and status, never by raw path', async () => {
    await http(`${t.url}/search-terms?since=2d`, { headers: basicHeader() });
    await http(`${t.url}/entities/synonym/abc-123`, { headers: basicHeader() });
    const text = await metrics();
    expect(text).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/search-terms",status="200"\} [1-9]/);
    expect(text).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/entities\/:type\/:id",status="404"\} 1/);
    expect(text).not.toContain('abc-123');
  });

  it('counts the hits and misses of the answer cache by answer: the hit rate a dashboard computes from them', async () => {
    const counters = async () => {
      const text = await metrics();
      const count = (kind: string, answer: string) =>
        Number(new RegExp(`search_terms_cache_${kind}_total\\{answer="${answer}"\\} (\\d+)`).exec(text)?.[1] ?? 0);
      return { hits: count('hits', 'search-terms'), misses: count('misses', 'search-terms'), statsMisses: count('misses', 'stats') };
    };
    const get = async (path: string) => expect((await http(`${t.url}${path}`, { headers: basicHeader() })).status).toBe(200);
    const before = await counters();
    await get('/search-terms?since=5d&language=fr');
    await get('/search-terms?since=5d&language=fr');
    await get('/search-terms?since=5d&language=fr');
    await get('/search-stats?since=5d');
    expect(await counters()).toEqual({ hits: before.hits + 2, misses: before.misses + 1, statsMisses: before.statsMisses + 1 });
    // A write of this process drops the instance's answers: the next request is computed again.
    const body = JSON.stringify({ events: [{ phrase: 'cache probe', language: 'fr', hits: 1 }] });
    expect((await http(`${t.url}/events`, { method: 'POST', headers: hmacHeaders(LEGACY_SECRET, body), body })).status).toBe(202);
    await get('/search-terms?since=5d&language=fr');
    expect(await counters()).toEqual({ hits: before.hits + 2, misses: before.misses + 2, statsMisses: before.statsMisses + 1 });
    const text = await metrics();
    expect(text).toContain('# TYPE search_terms_cache_hits_total counter');
    expect(text).toContain('# TYPE search_terms_cache_misses_total counter');
  });

  it('counts webhook deliveries by outcome: one per save, by what happened to it', async () => {
    const json = { ...basicHeader(), 'content-type': 'application/json' };
    const save = async (id: string) =>
      expect((await http(`${t.url}/entities/menu/${id}`, { method: 'PUT', headers: json, body: '{}' })).status).toBe(201);
    const outcomes = async () => {
      const text = await metrics();
      const count = (outcome: string) =>
        Number(new RegExp(`webhook_deliveries_total\\{outcome="${outcome}"\\} (\\d+)`).exec(text)?.[1] ?? 0);
      return { disabled: count('disabled'), delivered: count('delivered'), failed: count('failed') };
    };
    const receiver = await new Receiver().start();
    try {
      const start = await outcomes();
      await save('m1'); // no webhook configured yet
      expect(await outcomes()).toEqual({ ...start, disabled: start.disabled + 1 });
      const configured = await http(`${t.url}/configuration`, {
        method: 'PUT',
        headers: json,
        body: JSON.stringify({ webhookConfig: { url: `${receiver.url}/hook` } }),
      });
      expect(configured.status).toBe(200);
      await save('m2');
      expect(await outcomes()).toEqual({ ...start, disabled: start.disabled + 1, delivered: start.delivered + 1 });
      receiver.reset({ status: 500 });
      await save('m3');
      expect(await outcomes()).toEqual({ disabled: start.disabled + 1, delivered: start.delivered + 1, failed: start.failed + 1 });
    } finally {
      await receiver.stop();
    }
  });
});
