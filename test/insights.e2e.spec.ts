import { createInsightsClient } from 'search-insights';
import { ClickHouseService } from '@app/clickhouse';
import { personalHash } from '@app/contracts';
import { UserTokenErasure } from '../apps/query/src/insights/user-token-erasure.service';
import { announce } from './support/announce';
import { createCollectorKey, fetchRequester } from './support/insights';
import { eventually } from './support/storage';
import { LEGACY_SECRET, basicHeader, createKey, hmacHeaders, http, jwtHeader, startApp, type TestApp } from './support/test-app';

const QUERY_1 = '0190c7a45e4f7b6a9c3d2f1e0d9c8b7a';
const QUERY_2 = 'ABCDEF0123456789ABCDEF0123456789';
const SHOP = 'https://shop.example';
const OK = { status: 200, message: 'OK' };

interface StoredRow {
  type: string;
  search_id: string;
  object_id: string;
  object_index: number;
  position: number;
  subtype: string;
  value: string;
  currency: string;
  event_name: string;
  index_name: string;
  filters: string[];
  origin: string;
  instance: string;
  user_token_hash: string;
  intake_token: string;
}

describe('POST /1/events: the Insights protocol (e2e over HTTP)', () => {
  let t: TestApp;
  let ch: ClickHouseService;
  let collector: { id: string; secret: string };

  beforeAll(async () => {
    t = await startApp({ COLLECT_PER_MINUTE: '0' });
    ch = t.app.get(ClickHouseService);
    const res = await createCollectorKey(t.url, { origins: [SHOP] }, { ...basicHeader(), 'x-service-instance': 'stage' });
    expect(res.status).toBe(201);
    collector = res.body as { id: string; secret: string };
  });
  afterAll(() => t.close());

  const stored = (where: string) =>
    ch.query<StoredRow>(
      `SELECT type, toString(search_id) AS search_id, object_id, object_index, position, subtype, toString(value) AS value, currency,
              event_name, index_name, filters, origin, instance, user_token_hash, intake_token
       FROM ${ch.table('interactions')} WHERE ${where} ORDER BY event_name, object_index`,
    );

  const send = (
    body: unknown,
    query = `?X-Algolia-Application-Id=demo&X-Algolia-API-Key=${collector.secret}`,
    headers: Record<string, string> = {},
  ) =>
    http<Record<string, unknown>>(`${t.url}/1/events${query}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  it('stores what the real client (search-insights 2.x in Node) sends, exactly', async () => {
    const aa = createInsightsClient(fetchRequester);
    aa('init', { appId: 'demo', apiKey: collector.secret, host: t.url, userToken: 'shopper-1' });
    const sent = await Promise.all([
      aa('clickedObjectIDsAfterSearch', {
        eventName: 'c1 clicked',
        index: 'products',
        queryID: QUERY_1,
        objectIDs: ['sku-1', 'sku-2'],
        positions: [1, 4],
      }),
      aa('convertedObjectIDsAfterSearch', { eventName: 'c2 converted', index: 'products', queryID: QUERY_2, objectIDs: ['sku-3'] }),
      aa('purchasedObjectIDsAfterSearch', {
        eventName: 'c3 purchased',
        index: 'products',
        queryID: QUERY_1,
        objectIDs: ['sku-1', 'sku-4'],
        objectData: [
          { price: '10.50', quantity: 2, discount: '1' },
          { price: 5, queryID: QUERY_2 },
        ],
        value: '59.90',
        currency: 'EUR',
      }),
      aa('clickedObjectIDs', { eventName: 'c4 clicked without search', index: 'products', objectIDs: ['sku-5'] }),
      aa('convertedObjectIDs', { eventName: 'c5 converted without search', index: 'products', objectIDs: ['sku-6'] }),
      aa('clickedFilters', { eventName: 'c6 filter clicked', index: 'products', filters: ['brand:Apple'] }),
      aa('viewedObjectIDs', { eventName: 'c7 viewed', index: 'products', objectIDs: ['sku-7'] }),
      // A field the service does not know is ignored.
      aa('clickedObjectIDsAfterSearch', {
        eventName: 'c8 with an extra field',
        index: 'products',
        queryID: QUERY_1,
        objectIDs: ['sku-8'],
        positions: [2],
        extra: { anything: true },
      } as never),
    ]);
    expect(sent).toEqual(Array(8).fill(true));

    const hash = personalHash('demo', 'shopper-1');
    const q1 = '0190c7a4-5e4f-7b6a-9c3d-2f1e0d9c8b7a';
    const q2 = 'abcdef01-2345-6789-abcd-ef0123456789';
    const none = '00000000-0000-0000-0000-000000000000';
    const row = (r: Partial<StoredRow>): StoredRow => ({
      type: 'click',
      search_id: none,
      object_id: '',
      object_index: 0,
      position: 0,
      subtype: '',
      value: '0',
      currency: '',
      event_name: '',
      index_name: 'products',
      filters: [],
      origin: 'insights',
      instance: 'stage',
      user_token_hash: hash,
      intake_token: '',
      ...r,
    });
    expect(await stored(`origin = 'insights' AND event_name LIKE 'c%'`)).toEqual([
      row({ event_name: 'c1 clicked', search_id: q1, object_id: 'sku-1', position: 1 }),
      row({ event_name: 'c1 clicked', search_id: q1, object_id: 'sku-2', object_index: 1, position: 4 }),
      row({ event_name: 'c2 converted', type: 'conversion', search_id: q2, object_id: 'sku-3' }),
      // `value` counts once per event (first object), the per-object queryID wins over the event's.
      row({
        event_name: 'c3 purchased',
        type: 'conversion',
        subtype: 'purchase',
        search_id: q1,
        object_id: 'sku-1',
        value: '59.9',
        currency: 'EUR',
      }),
      row({
        event_name: 'c3 purchased',
        type: 'conversion',
        subtype: 'purchase',
        search_id: q2,
        object_id: 'sku-4',
        object_index: 1,
        currency: 'EUR',
      }),
      row({ event_name: 'c4 clicked without search', object_id: 'sku-5' }),
      row({ event_name: 'c5 converted without search', type: 'conversion', object_id: 'sku-6' }),
      row({ event_name: 'c6 filter clicked', filters: ['brand:Apple'] }),
      row({ event_name: 'c7 viewed', type: 'view', object_id: 'sku-7' }),
      row({ event_name: 'c8 with an extra field', search_id: q1, object_id: 'sku-8', position: 2 }),
    ]);
  });

  it('answers exactly EventsResponse, the counts in headers; rejected events are kept with index and reason', async () => {
    const good = { eventType: 'click', eventName: 'h1', index: 'products', objectIDs: ['a'] };
    const res = await send({ events: [good, { ...good, eventType: 'purchase' }, { ...good, positions: [0] }] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(OK);
    expect(res.headers['x-events-accepted']).toBe('1');
    expect(res.headers['x-events-rejected']).toBe('2');
    const rejected = await ch.query<{ item_index: number; reason: string; kind: string; instance: string }>(
      `SELECT item_index, reason, kind, instance FROM ${ch.table('rejected_events')} WHERE raw LIKE '%"h1"%' ORDER BY item_index`,
    );
    expect(rejected).toEqual([
      { item_index: 1, reason: 'eventType must be click, conversion or view', kind: 'interaction', instance: 'stage' },
      { item_index: 2, reason: 'positions[0] must be an integer from 1 to 65535', kind: 'interaction', instance: 'stage' },
    ]);
  });

  it('answers 422 naming the first reasons when no event is valid; 400 and 413 for the body', async () => {
    const res = await send({ events: [{ eventType: 'x' }, { eventType: 'view', eventName: 'v', index: 'i' }] });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      status: 422,
      message: 'No valid event: events[0]: eventType must be click, conversion or view; events[1]: objectIDs or filters is required',
    });
    expect(res.headers['x-events-accepted']).toBe('0');
    expect(res.headers['x-events-rejected']).toBe('2');
    expect((await send({ events: 'none' })).body).toEqual({
      status: 400,
      message: 'The body must be {"events": [...]} with 1 to 1000 events',
    });
    const malformed = await send('{not json');
    expect([malformed.status, Object.keys(malformed.body).sort()]).toEqual([400, ['message', 'status']]);
    expect(malformed.body.message).toMatch(/^Malformed JSON body/);
    const many = Array.from({ length: 1001 }, () => ({ eventType: 'view', eventName: 'v', index: 'i', objectIDs: ['a'] }));
    const big = await send({ events: many });
    expect(big.status).toBe(413);
    expect(Object.keys(big.body).sort()).toEqual(['message', 'status']);
  });

  it('takes text/plain (sendBeacon) and the credentials as headers', async () => {
    const body = { events: [{ eventType: 'view', eventName: 'beacon', index: 'i', objectIDs: ['a'] }] };
    expect((await send(JSON.stringify(body), undefined, { 'content-type': 'text/plain;charset=UTF-8' })).status).toBe(200);
    const headers = { 'x-algolia-application-id': 'demo', 'x-algolia-api-key': collector.secret };
    expect((await send(body, '', headers)).status).toBe(200);
    expect((await send(body, undefined, { 'content-type': 'application/xml' })).status).toBe(415);
    expect(await stored(`event_name = 'beacon'`)).toHaveLength(2);
  });

  describe('collector keys', () => {
    it('are made with the preset only, bound to the instance of the request, with their origins; listed like every key', async () => {
      const res = await createCollectorKey(t.url, { origins: ['https://b.example', 'http://localhost:8080'] });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        permissions: ['events:collect'],
        instances: ['live'],
        origins: ['http://localhost:8080', 'https://b.example'],
      });
      const list = await http<Array<Record<string, unknown>>>(`${t.url}/secret`, { headers: basicHeader() });
      expect(list.body.find((k) => k.id === collector.id)).toMatchObject({
        permissions: ['events:collect'],
        instances: ['stage'],
        origins: [SHOP],
      });
      for (const [body, message] of [
        [{ permissions: ['search:read'] }, 'A collector key holds events:collect only: no other permissions with the preset collector'],
        [{ instances: ['live'] }, "A collector key is bound to the request's instance (X-Service-Instance): no instances"],
        [{ origins: ['https://shop.example/path'] }, 'Not an origin (scheme://host[:port], no path): https://shop.example/path'],
        [{ preset: undefined, permissions: ['events:collect'] }, 'events:collect is granted only by the preset collector'],
        [{ preset: undefined, permissions: ['search:read'], origins: [SHOP] }, 'origins is only for the preset collector'],
      ] as const) {
        const refused = await createCollectorKey(t.url, body);
        expect([refused.status, refused.body.message]).toEqual([400, message]);
      }
    });

    it('authenticate POST /1/events only, and nothing else authenticates there', async () => {
      // A collector key signing an HMAC request, or its credentials sent to another route: 401.
      const signed = await http(`${t.url}/search-terms`, { headers: hmacHeaders(collector.secret) });
      expect(signed.status).toBe(401);
      const asQuery = await http(`${t.url}/search-terms?X-Algolia-Application-Id=demo&X-Algolia-API-Key=${collector.secret}`);
      expect(asQuery.status).toBe(401);
      const body = { events: [{ eventType: 'view', eventName: 'v', index: 'i', objectIDs: ['a'] }] };
      // An HMAC key's secret as a collector key, Basic, a JWT, a signed request: 401 with EventsResponse's two fields.
      const hmacKey = await createKey(t.url, ['search:write', 'search:read']);
      for (const res of [
        await send(body, `?X-Algolia-Application-Id=demo&X-Algolia-API-Key=${hmacKey.secret}`),
        await send(body, `?X-Algolia-Application-Id=demo&X-Algolia-API-Key=${LEGACY_SECRET}`),
        await send(body, '', basicHeader()),
        await send(body, '', jwtHeader({ permissions: ['events.collect'] })),
        await send(body, '', hmacHeaders(LEGACY_SECRET, JSON.stringify(body))),
        await send(body, `?X-Algolia-Application-Id=other&X-Algolia-API-Key=${collector.secret}`),
      ]) {
        expect(res.status).toBe(401);
        expect(Object.keys(res.body).sort()).toEqual(['message', 'status']);
      }
      // A revoked collector key stops working.
      const spare = (await createCollectorKey(t.url)).body as { id: string; secret: string };
      expect((await send(body, `?X-Algolia-Application-Id=demo&X-Algolia-API-Key=${spare.secret}`)).status).toBe(200);
      expect((await http(`${t.url}/secret/${spare.id}`, { method: 'DELETE', headers: basicHeader() })).status).toBe(200);
      expect((await send(body, `?X-Algolia-Application-Id=demo&X-Algolia-API-Key=${spare.secret}`)).status).toBe(401);
    });

    it("grant CORS to their origins only (another: no grant and 403); preflights are answered from the query string's key", async () => {
      const body = { events: [{ eventType: 'view', eventName: 'v', index: 'i', objectIDs: ['a'] }] };
      const allowed = await send(body, undefined, { origin: SHOP });
      expect(allowed.status).toBe(200);
      expect(allowed.headers['access-control-allow-origin']).toBe(SHOP);
      expect(allowed.headers['access-control-expose-headers']).toContain('X-Events-Accepted');
      const other = await send(body, undefined, { origin: 'https://evil.example' });
      expect(other.status).toBe(403);
      expect(other.body).toEqual({ status: 403, message: 'Origin not allowed: this collector key is for pages of other origins' });
      expect(other.headers['access-control-allow-origin']).toBeUndefined();

      const preflight = (query: string, origin: string) =>
        http(`${t.url}/1/events${query}`, {
          method: 'OPTIONS',
          headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
        });
      const keyQuery = `?X-Algolia-Application-Id=demo&X-Algolia-API-Key=${collector.secret}`;
      const granted = await preflight(keyQuery, SHOP);
      expect(granted.status).toBe(204);
      expect(granted.headers['access-control-allow-origin']).toBe(SHOP);
      expect(granted.headers['access-control-allow-methods']).toBe('POST');
      const refused = await preflight(keyQuery, 'https://evil.example');
      expect(refused.status).toBe(204);
      expect(refused.headers['access-control-allow-origin']).toBeUndefined();
      // Without a key (or with one unknown here), any origin: the POST decides.
      expect((await preflight('', 'https://evil.example')).headers['access-control-allow-origin']).toBe('https://evil.example');
      expect(
        (await preflight('?X-Algolia-Application-Id=demo&X-Algolia-API-Key=nope', 'https://x.example')).headers[
          'access-control-allow-origin'
        ],
      ).toBe('https://x.example');
    });
  });

  describe('DELETE /1/usertokens/{userToken}', () => {
    it('erases the token (204, no body) for every instance of the credential, then its rows; never with a collector key', async () => {
      const aa = createInsightsClient(fetchRequester);
      aa('init', { appId: 'demo', apiKey: collector.secret, host: t.url, userToken: 'shopper-erased' });
      expect(await aa('clickedObjectIDs', { eventName: 'erasure', index: 'products', objectIDs: ['x', 'y'] })).toBe(true);
      expect(await stored(`event_name = 'erasure'`)).toHaveLength(2);

      const withCollector = await http(
        `${t.url}/1/usertokens/shopper-erased?X-Algolia-Application-Id=demo&X-Algolia-API-Key=${collector.secret}`,
        {
          method: 'DELETE',
          headers: { 'x-algolia-application-id': 'demo', 'x-algolia-api-key': collector.secret },
        },
      );
      expect(withCollector.status).toBe(401);
      expect(
        (await http(`${t.url}/1/usertokens/shopper-erased`, { method: 'DELETE', headers: hmacHeaders(collector.secret) })).status,
      ).toBe(401);
      const reader = await createKey(t.url, ['search:read']);
      expect((await http(`${t.url}/1/usertokens/shopper-erased`, { method: 'DELETE', headers: hmacHeaders(reader.secret) })).status).toBe(
        403,
      );

      const res = await http(`${t.url}/1/usertokens/shopper-erased`, { method: 'DELETE', headers: basicHeader() });
      expect(res.status).toBe(204);
      expect(res.body).toBeUndefined();
      const hash = personalHash('demo', 'shopper-erased');
      const erased = await ch.query<{ instance: string; user_token_hash: string }>(
        `SELECT instance, user_token_hash FROM ${ch.table('erased_user_tokens')} WHERE user_token_hash = {hash:String} ORDER BY instance`,
        { hash },
      );
      expect(erased).toEqual([
        { instance: 'live', user_token_hash: hash },
        { instance: 'stage', user_token_hash: hash },
      ]);
      await t.app.get(UserTokenErasure).purge();
      expect(
        await eventually(
          () => stored(`event_name = 'erasure'`),
          (rows) => rows.length === 0,
          10_000,
        ),
      ).toEqual([]);
      // Others' rows stay.
      expect((await stored(`event_name = 'c1 clicked'`)).length).toBe(2);
    });
  });
});

describe('engagement figures of what the real client sent, and erasure', () => {
  let t: TestApp;
  let secret: string;
  beforeAll(async () => {
    t = await startApp({ COLLECT_PER_MINUTE: '0' });
    secret = ((await createCollectorKey(t.url)).body as { secret: string }).secret;
  });
  afterAll(() => t.close());

  interface Term {
    search_phrase: string;
    tracked_searches: number;
    clicked_searches: number;
    clicks: number;
    average_click_position: number | null;
    converted_searches: number;
    revenue: Record<string, number>;
  }
  const terms = async () => {
    const res = await http<Term[]>(`${t.url}/search-terms?since=1d&engagement=true`, { headers: basicHeader() });
    expect(res.status).toBe(200);
    return res.body.map(
      ({ search_phrase, tracked_searches, clicked_searches, clicks, average_click_position, converted_searches, revenue }) => ({
        search_phrase,
        tracked_searches,
        clicked_searches,
        clicks,
        average_click_position,
        converted_searches,
        revenue,
      }),
    );
  };
  const client = (userToken: string) => {
    const aa = createInsightsClient(fetchRequester);
    aa('init', { appId: 'demo', apiKey: secret, host: t.url, userToken });
    return aa;
  };

  it("counts the clicks and a conversion's value once, and no longer counts an erased shopper's from the 204 on", async () => {
    const body = JSON.stringify({ events: [{ id: QUERY_1, phrase: 'red shoes', language: 'en', hits: 12 }] });
    expect((await http(`${t.url}/events`, { method: 'POST', headers: hmacHeaders(LEGACY_SECRET, body), body })).status).toBe(202);
    const [alice, bob] = [client('alice'), client('bob')];
    const sent = await Promise.all([
      alice('clickedObjectIDsAfterSearch', {
        eventName: 'click',
        index: 'products',
        queryID: QUERY_1,
        objectIDs: ['sku-1'],
        positions: [1],
      }),
      bob('clickedObjectIDsAfterSearch', { eventName: 'click', index: 'products', queryID: QUERY_1, objectIDs: ['sku-2'], positions: [3] }),
      bob('purchasedObjectIDsAfterSearch', {
        eventName: 'buy',
        index: 'products',
        queryID: QUERY_1,
        objectIDs: ['sku-2', 'sku-3'],
        value: '30.5',
        currency: 'EUR',
      }),
    ]);
    expect(sent).toEqual([true, true, true]);
    const both = { search_phrase: 'red shoes', tracked_searches: 1, clicked_searches: 1, converted_searches: 1 };
    expect(await terms()).toEqual([{ ...both, clicks: 2, average_click_position: 2, revenue: { EUR: 30.5 } }]);
    expect((await http(`${t.url}/1/usertokens/bob`, { method: 'DELETE', headers: basicHeader() })).status).toBe(204);
    expect(await terms()).toEqual([{ ...both, clicks: 1, average_click_position: 1, converted_searches: 0, revenue: {} }]);
  });

  it('erases an event sent with both tokens by either of them', async () => {
    const body = JSON.stringify({ events: [{ id: QUERY_2, phrase: 'blue hat', language: 'en', hits: 4 }] });
    expect((await http(`${t.url}/events`, { method: 'POST', headers: hmacHeaders(LEGACY_SECRET, body), body })).status).toBe(202);
    const event = (userToken: string, authenticatedUserToken: string, objectID: string) => ({
      eventType: 'click',
      eventName: 'click',
      index: 'products',
      userToken,
      authenticatedUserToken,
      queryID: QUERY_2,
      objectIDs: [objectID],
      positions: [1],
    });
    const sent = await http(`${t.url}/1/events?X-Algolia-Application-Id=demo&X-Algolia-API-Key=${secret}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        events: [
          event('anon-dora', 'dora-account', 'sku-7'),
          event('anon-eve', 'eve-account', 'sku-8'),
          // Rejected (no position): kept with Dora's tokens hashed, and erased with her.
          { ...event('anon-dora', 'dora-account', 'sku-9'), positions: undefined },
        ],
      }),
    });
    expect(sent.status).toBe(200);
    const ch = t.app.get(ClickHouseService);
    const rejected = () => ch.query<{ raw: string }>(`SELECT raw FROM ${ch.table('rejected_events')} WHERE raw LIKE '%sku-9%'`);
    const [kept] = await rejected();
    expect(kept.raw).toContain(`"authenticatedUserToken":"sha256:${personalHash('demo', 'dora-account')}"`);
    expect(kept.raw).not.toContain('dora');
    const hat = async () => (await terms()).find((term) => term.search_phrase === 'blue hat')?.clicks;
    expect(await hat()).toBe(2);
    // Dora erased by her anonymous token, Eve by her account's.
    for (const token of ['anon-dora', 'eve-account']) {
      expect((await http(`${t.url}/1/usertokens/${token}`, { method: 'DELETE', headers: basicHeader() })).status).toBe(204);
    }
    expect(await hat()).toBe(0);
    // And their rows go.
    await t.app.get(UserTokenErasure).purge();
    const left = () =>
      ch.query<{ object_id: string }>(`SELECT object_id FROM ${ch.table('interactions')} WHERE object_id IN ('sku-7', 'sku-8')`);
    expect(await eventually(left, (rows) => rows.length === 0, 10_000)).toEqual([]);
    expect(await eventually(rejected, (rows) => rows.length === 0, 10_000)).toEqual([]);
  });
});

describe('COLLECT_PER_MINUTE, TRUST_PROXY and CORS_ORIGINS', () => {
  let t: TestApp;
  let secret: string;
  let shopKey: string;
  beforeAll(async () => {
    t = await startApp({ COLLECT_PER_MINUTE: '2', TRUST_PROXY: '127.0.0.1', CORS_ORIGINS: 'https://admin.example' });
    secret = ((await createCollectorKey(t.url)).body as { secret: string }).secret;
    shopKey = ((await createCollectorKey(t.url, { origins: [SHOP] })).body as { secret: string }).secret;
  });
  afterAll(() => t.close());

  const send = (forwardedFor: string) =>
    http<Record<string, unknown>>(`${t.url}/1/events?X-Algolia-Application-Id=demo&X-Algolia-API-Key=${secret}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
      body: JSON.stringify({ events: [{ eventType: 'view', eventName: 'v', index: 'i', objectIDs: ['a'] }] }),
    });

  it('limits each client address (as the trusted proxy names it; IPv6 per /64): 429 with Retry-After beyond the limit', async () => {
    expect((await send('203.0.113.7')).status).toBe(200);
    expect((await send('203.0.113.7')).status).toBe(200);
    const limited = await send('203.0.113.7');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.body).toEqual({
      status: 429,
      message: 'Too many requests: at most 2 a minute from this address (COLLECT_PER_MINUTE); retry after Retry-After seconds',
    });
    // Another shopper behind the same proxy has a budget of its own; the same /64 shares one.
    expect((await send('203.0.113.8')).status).toBe(200);
    expect((await send('2001:db8:1:2::1')).status).toBe(200);
    expect((await send('2001:db8:1:2::2')).status).toBe(200);
    expect((await send('2001:db8:1:2:ffff::3')).status).toBe(429);
  });

  it('refuses a request over the limit before reading its body', async () => {
    expect((await send('203.0.113.20')).status).toBe(200);
    expect((await send('203.0.113.20')).status).toBe(200);
    const path = `/1/events?X-Algolia-Application-Id=demo&X-Algolia-API-Key=${secret}`;
    const res = await announce(t.url, 'POST', path, 500_000, { 'X-Forwarded-For': '203.0.113.20' });
    expect(res.status).toBe(429);
    expect(res.head).toMatch(/\r\nretry-after: \d+\r\n/i);
    expect(res.head).toMatch(/\r\nconnection: close\r\n/i);
  });

  it("grants the key's origin its 429 too (the page can read Retry-After), and never counts a refused origin as a failure", async () => {
    const fromShop = (origin: string) =>
      http(`${t.url}/1/events?X-Algolia-Application-Id=demo&X-Algolia-API-Key=${shopKey}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin, 'x-forwarded-for': '203.0.113.30' },
        body: JSON.stringify({ events: [{ eventType: 'view', eventName: 'v', index: 'i', objectIDs: ['a'] }] }),
      });
    // More refused origins than AUTH_FAILURES_PER_MINUTE (60) allows failures: none counts, nor against the limit.
    for (let i = 0; i < 61; i++) {
      expect((await fromShop('https://staging.example')).status).toBe(403);
    }
    expect((await fromShop(SHOP)).status).toBe(200);
    expect((await fromShop(SHOP)).status).toBe(200);
    const limited = await fromShop(SHOP);
    expect([limited.status, limited.headers['access-control-allow-origin']]).toEqual([429, SHOP]);
    expect(limited.headers['access-control-expose-headers']).toContain('Retry-After');
  });

  it("never grants CORS_ORIGINS' origins on /1/events: the key's origins decide", async () => {
    const query = `?X-Algolia-Application-Id=demo&X-Algolia-API-Key=${shopKey}`;
    const preflight = await http(`${t.url}/1/events${query}`, {
      method: 'OPTIONS',
      headers: { origin: 'https://admin.example', 'access-control-request-method': 'POST' },
    });
    expect([preflight.status, preflight.headers['access-control-allow-origin']]).toEqual([204, undefined]);
    const post = await http<Record<string, unknown>>(`${t.url}/1/events${query}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://admin.example', 'x-forwarded-for': '198.51.100.1' },
      body: JSON.stringify({ events: [{ eventType: 'view', eventName: 'v', index: 'i', objectIDs: ['a'] }] }),
    });
    expect([post.status, post.headers['access-control-allow-origin']]).toEqual([403, undefined]);
    // Elsewhere CORS_ORIGINS still applies.
    const other = await http(`${t.url}/search-terms`, {
      method: 'OPTIONS',
      headers: { origin: 'https://admin.example', 'access-control-request-method': 'GET' },
    });
    expect(other.headers['access-control-allow-origin']).toBe('https://admin.example');
  });
});
