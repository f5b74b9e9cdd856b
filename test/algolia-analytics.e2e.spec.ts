import { analyticsClient } from '@algolia/client-analytics';
import { randomUUID } from 'node:crypto';
import { algoliaViolations, checkedRequester } from './support/algolia-contract';
import { createCollectorKey } from './support/insights';
import { describeKafka, startKafka, type KafkaBroker } from './support/kafka';
import { eventually } from './support/storage';
import { basicHeader, createKey, hmacHeaders, http, jwtHeader, startApp, type TestApp } from './support/test-app';

const DAY = 86_400_000;
const hex = (id: string) => id.replace(/-/g, '');

/**
 * Algolia's Analytics API (`GET /2/...`, docs/algolia.md) read by Algolia's own client, `@algolia/client-analytics`
 * 5.x, pointed at the service with `hosts`: known searches (filters, user tokens, countries, tags) through
 * `POST /events`, clicks and conversions through the Insights protocol, on each transport (stored at once, or through
 * Kafka and the ingest app); every figure exact, each equal to the native answer it adapts, and every answer as
 * Algolia's document defines it.
 */
for (const kafka of [false, true]) {
  (kafka ? describeKafka : describe)(`Algolia's Analytics API (the real client; events over ${kafka ? 'Kafka' : 'HTTP'})`, () => {
    let t: TestApp;
    let broker: KafkaBroker | undefined;
    let secret: string;
    // Half past the hour before: the searches and their clicks (a few seconds apart) lie in one hour and one UTC day.
    const at = Math.floor(Date.now() / 3_600_000) * 3_600_000 - 30 * 60_000;
    const day = new Date(at).toISOString().slice(0, 10);
    const nextDay = new Date(Date.parse(day) + DAY).toISOString().slice(0, 10);
    const [a, b, c, d] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    // Every answer the client receives is checked against Algolia's own document.
    const client = () =>
      analyticsClient('demo', secret, undefined, {
        hosts: [{ url: '127.0.0.1', port: Number(new URL(t.url).port), protocol: 'http', accept: 'readWrite' }],
        requester: checkedRequester(),
      });

    beforeAll(async () => {
      // On Kafka, POST /events and POST /1/events produce to the topic, and the ingest app stores what it consumes.
      broker = kafka ? await startKafka({ 'algolia-events': 2, 'catalogue-documents': 1 }) : undefined;
      t = await startApp({
        COLLECT_PER_MINUTE: '0',
        ...(broker ? { KAFKA_BROKERS: broker.brokers, KAFKA_TOPIC_SEARCH_EVENTS: 'algolia-events', KAFKA_GROUP_ID: 'algolia' } : {}),
      });
      const search = (id: string | undefined, phrase: string, hits: number, ts: number, extra: Record<string, unknown> = {}) => ({
        ...(id ? { id } : {}),
        phrase,
        language: 'en',
        hits,
        ts,
        ...extra,
      });
      const events = [
        search(a, 'shoes', 10, at - 2_000, { filters: ['brand:Acme'], userToken: 'u1', country: 'DE', tags: ['mobile'] }),
        search(b, 'shoes', 4, at - 1_000, { userToken: 'u2', tags: ['desktop'] }),
        search(c, 'hat', 0, at, { filters: ['color:red'], sessionId: 's9', country: 'FR' }),
        search(undefined, 'hat', 0, at, { userToken: 'u1' }),
        search(d, 'sock', 2, at, { userToken: 'u1' }),
        search(undefined, 'bot', 0, at, { bot: true }),
      ];
      const sent = await http<{ accepted: number }>(`${t.url}/events`, {
        method: 'POST',
        headers: { ...basicHeader(), 'content-type': 'application/json' },
        body: JSON.stringify({ events }),
      });
      expect([sent.status, sent.body.accepted]).toEqual([202, events.length]);
      const collector = (await createCollectorKey(t.url)).body as { secret: string };
      const insights = await http(`${t.url}/1/events?X-Algolia-Application-Id=demo&X-Algolia-API-Key=${collector.secret}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          events: [
            {
              eventType: 'click',
              eventName: 'c',
              index: 'products',
              queryID: hex(a),
              objectIDs: ['sku-1'],
              positions: [1],
              userToken: 'u1',
              timestamp: at,
            },
            {
              eventType: 'click',
              eventName: 'c',
              index: 'products',
              queryID: hex(a),
              objectIDs: ['sku-2'],
              positions: [12],
              userToken: 'u1',
              timestamp: at,
            },
            {
              eventType: 'click',
              eventName: 'c',
              index: 'products',
              queryID: hex(d),
              objectIDs: ['sku-1'],
              positions: [3],
              userToken: 'u1',
              timestamp: at,
            },
            {
              eventType: 'conversion',
              eventSubtype: 'purchase',
              eventName: 'p',
              index: 'products',
              queryID: hex(a),
              objectIDs: ['sku-1'],
              objectData: [{ price: '20.00', quantity: 1 }],
              currency: 'EUR',
              userToken: 'u1',
              timestamp: at,
            },
            {
              eventType: 'conversion',
              eventSubtype: 'addToCart',
              eventName: 'p',
              index: 'products',
              queryID: hex(d),
              objectIDs: ['sku-1'],
              userToken: 'u1',
              timestamp: at,
            },
          ],
        }),
      });
      expect(insights.status).toBe(200);
      const key = await http<{ secret: string; preset: string; permissions: string[] }>(`${t.url}/secret`, {
        method: 'POST',
        headers: { ...basicHeader(), 'content-type': 'application/json' },
        body: JSON.stringify({ description: 'reports', preset: 'analytics', instances: ['live'] }),
      });
      expect([key.status, key.body.preset, key.body.permissions]).toEqual([201, 'analytics', ['analytics:read']]);
      secret = key.body.secret;
      // Stored once the intake's batch and the interactions are in: the native totals show every search and click.
      await eventually(
        () =>
          http<{ totals: { searches: number; clicks: number; purchased_searches: number } }>(
            `${t.url}/search-stats?since=2d&engagement=true`,
            { headers: basicHeader() },
          ),
        (r) => r.body.totals.searches === 5 && r.body.totals.clicks === 3 && r.body.totals.purchased_searches === 1,
      );
    });
    afterAll(async () => {
      await t?.close();
      await broker?.stop();
    });

    it('answers the top searches, their count per day and the users, exactly', async () => {
      const analytics = client();
      expect(await analytics.getTopSearches({ index: 'live' })).toEqual({
        searches: [
          { search: 'hat', count: 2, nbHits: 0 },
          { search: 'shoes', count: 2, nbHits: 4 },
          { search: 'sock', count: 1, nbHits: 2 },
        ],
      });
      // Fewest first; ties by phrase either way.
      expect(await analytics.getTopSearches({ index: 'live', limit: 2, offset: 1, direction: 'asc' })).toEqual({
        searches: [
          { search: 'hat', count: 2, nbHits: 0 },
          { search: 'shoes', count: 2, nbHits: 4 },
        ],
      });
      const count = await analytics.getSearchesCount({ index: 'live' });
      expect(count.count).toBe(5);
      expect(count.dates).toHaveLength(8);
      expect(count.dates.filter((x) => x.count > 0)).toEqual([{ date: day, count: 5 }]);
      expect((await analytics.getUsersCount({ index: 'live', startDate: day, endDate: day })).count).toBe(3);
      expect(await analytics.getSearchesCount({ index: 'live', tags: 'mobile OR desktop', startDate: day, endDate: day })).toEqual({
        count: 2,
        dates: [{ date: day, count: 2 }],
      });
    });

    it('answers the searches without results or clicks, and the rates', async () => {
      const analytics = client();
      const window = { index: 'live', startDate: day, endDate: day };
      expect(await analytics.getSearchesNoResults(window)).toEqual({ searches: [{ search: 'hat', count: 2, withFilterCount: 1 }] });
      expect(await analytics.getSearchesNoClicks(window)).toEqual({ searches: [{ search: 'shoes', count: 1, nbHits: 4 }] });
      expect(await analytics.getNoResultsRate(window)).toEqual({
        rate: 0.4,
        count: 5,
        noResultCount: 2,
        dates: [{ date: day, rate: 0.4, count: 5, noResultCount: 2 }],
      });
      expect(await analytics.getClickThroughRate(window)).toEqual({
        rate: 2 / 3,
        clickCount: 3,
        trackedSearchCount: 3,
        dates: [{ date: day, rate: 2 / 3, clickCount: 3, trackedSearchCount: 3 }],
      });
      expect((await analytics.getClickPositions(window)).positions.filter((p) => (p.clickCount ?? 0) > 0)).toEqual([
        { position: [1, 1], clickCount: 1 },
        { position: [3, 3], clickCount: 1 },
        { position: [11, 20], clickCount: 1 },
      ]);
      expect(await analytics.getRevenue(window)).toEqual({
        currencies: { EUR: { currency: 'EUR', revenue: 20 } },
        dates: [{ date: day, currencies: { EUR: { currency: 'EUR', revenue: 20 } } }],
      });
    });

    it('answers the click, conversion and revenue figures, per search, per object and per day, as the native ones', async () => {
      const analytics = client();
      const window = { index: 'live', startDate: day, endDate: day };
      type Native = Record<string, unknown> & { search_phrase: string; positions: Array<{ position: number; clicks: number }> };
      const native = await http<Native[]>(`${t.url}/search-terms?from=${day}&to=${nextDay}&hits=all&engagement=true`, {
        headers: basicHeader(),
      });
      const { searches } = await analytics.getTopSearches({ ...window, revenueAnalytics: true });
      expect(searches.map((x) => x.search)).toEqual(native.body.map((x) => x.search_phrase));
      const shoes = searches.find((x) => x.search === 'shoes') as unknown as Record<string, unknown>;
      expect(shoes).toEqual({
        search: 'shoes',
        count: 2,
        nbHits: 4,
        trackedSearchCount: 2,
        clickCount: 2,
        clickThroughRate: 0.5,
        averageClickPosition: 6.5,
        clickPositions: [
          { position: [1, 1], clickCount: 1 },
          ...Array.from({ length: 9 }, (_, i) => ({ position: [i + 2, i + 2], clickCount: 0 })),
          { position: [11, 20], clickCount: 1 },
          { position: [21, -1], clickCount: 0 },
        ],
        conversionCount: 1,
        conversionRate: 0.5,
        addToCartCount: 0,
        addToCartRate: 0,
        purchaseCount: 1,
        purchaseRate: 0.5,
        currencies: { EUR: { currency: 'EUR', revenue: 20 } },
      });
      // A search never tracked has no rates: null, where the document allows it.
      expect(searches.find((x) => x.search === 'hat')).toMatchObject({
        trackedSearchCount: 0,
        clickThroughRate: null,
        averageClickPosition: null,
      });
      // Ordered by a figure: the highest click-through rate first (sock 1, shoes 0.5, hat none).
      const byRate = await analytics.getTopSearches({ ...window, clickAnalytics: true, orderBy: 'clickThroughRate' });
      expect(byRate.searches.map((x) => x.search)).toEqual(['sock', 'shoes', 'hat']);
      expect(await analytics.getTopHits({ ...window, revenueAnalytics: true })).toEqual({
        hits: [
          {
            hit: 'sku-1',
            count: 2,
            trackedHitCount: 2,
            clickCount: 2,
            clickThroughRate: null,
            conversionCount: 2,
            conversionRate: null,
            addToCartCount: 1,
            addToCartRate: null,
            purchaseCount: 1,
            purchaseRate: null,
            currencies: { EUR: { currency: 'EUR', revenue: 20 } },
          },
          {
            hit: 'sku-2',
            count: 1,
            trackedHitCount: 1,
            clickCount: 1,
            clickThroughRate: null,
            conversionCount: 0,
            conversionRate: null,
            addToCartCount: 0,
            addToCartRate: null,
            purchaseCount: 0,
            purchaseRate: null,
            currencies: {},
          },
        ],
      });
      const totals = { trackedSearchCount: 3 };
      const daily = <T extends object>(figures: T) => ({ ...figures, dates: [{ date: day, ...figures }] });
      expect(await analytics.getNoClickRate(window)).toEqual(daily({ rate: 1 / 3, count: 3, noClickCount: 1 }));
      expect(await analytics.getAverageClickPosition(window)).toEqual(daily({ average: 16 / 3, clickCount: 3 }));
      expect(await analytics.getConversionRate(window)).toEqual(daily({ rate: 2 / 3, ...totals, conversionCount: 2 }));
      expect(await analytics.getAddToCartRate(window)).toEqual(daily({ rate: 1 / 3, ...totals, addToCartCount: 1 }));
      expect(await analytics.getPurchaseRate(window)).toEqual(daily({ rate: 1 / 3, ...totals, purchaseCount: 1 }));
      expect(await analytics.getTopFilterForAttribute({ ...window, attribute: 'brand' })).toEqual({
        values: [{ attribute: 'brand', operator: ':', value: 'Acme', count: 1 }],
      });
    });

    it('answers filters, countries and clicked objects', async () => {
      const analytics = client();
      const window = { index: 'live', startDate: day, endDate: day };
      expect(await analytics.getTopFilterAttributes(window)).toEqual({
        attributes: [
          { attribute: 'brand', count: 1 },
          { attribute: 'color', count: 1 },
        ],
      });
      expect(await analytics.getTopFiltersNoResults(window)).toEqual({
        values: [{ count: 1, values: [{ attribute: 'color', operator: ':', value: 'red' }] }],
      });
      expect(await analytics.getTopCountries(window)).toEqual({
        countries: [
          { country: 'DE', count: 1 },
          { country: 'FR', count: 1 },
        ],
      });
      expect(await analytics.getTopHits(window)).toEqual({
        hits: [
          { hit: 'sku-1', count: 2 },
          { hit: 'sku-2', count: 1 },
        ],
      });
      expect((await analytics.getStatus({ index: 'live' })).updatedAt).toBe(new Date(at).toISOString());
      // An index without a search in the retention: null, as Algolia's document allows.
      const quiet = await http(`${t.url}/2/status?index=stage`, { headers: basicHeader() });
      expect([quiet.status, quiet.body]).toEqual([200, { updatedAt: null }]);
      expect(algoliaViolations('/2/status?index=stage', quiet.status, JSON.stringify(quiet.body))).toEqual([]);
    });

    it("answers 400 naming the parameter, 401, 403 and 404 in Algolia's form", async () => {
      // Each answer also as Algolia's document has it (ErrorBase).
      const get = async (
        query: string,
        headers: Record<string, string> = { 'x-algolia-application-id': 'demo', 'x-algolia-api-key': secret },
      ) => {
        const res = await http<{ message: string; status: number }>(`${t.url}/2/searches/count?${query}`, { headers });
        expect(algoliaViolations(`/2/searches/count?${query}`, res.status, JSON.stringify(res.body))).toEqual([]);
        return res;
      };
      for (const [query, word] of [
        ['index=live&startDate=2026-02-30', 'startDate'],
        ['index=live&startDate=2026-11-02&endDate=2026-11-01', 'startDate'],
        ['index=live&startDate=1990-01-01', 'retention'],
        ['index=live&limit=5', 'limit'],
        ['', 'index'],
        ['index=live&tags=a%20AND%20b%20OR%20c', 'tags'],
      ]) {
        const res = await get(query);
        expect([res.status, res.body.status, res.body.message]).toEqual([400, 400, expect.stringContaining(word)]);
      }
      const top = (query: string) =>
        http<{ message: string }>(`${t.url}/2/searches?index=live&${query}`, {
          headers: { 'x-algolia-application-id': 'demo', 'x-algolia-api-key': secret },
        });
      expect((await top('limit=0')).status).toBe(400);
      expect((await top('limit=1001')).status).toBe(400);
      expect((await top('orderBy=clicks')).body.message).toContain('orderBy');
      expect((await get('index=stage')).status).toBe(403);
      expect((await get('index=nowhere')).status).toBe(404);
      expect((await get('index=live', { 'x-algolia-application-id': 'other', 'x-algolia-api-key': secret })).status).toBe(401);
      const hmacKey = await createKey(t.url, ['analytics:read']);
      const wrong = await get('index=live', { 'x-algolia-application-id': 'demo', 'x-algolia-api-key': hmacKey.secret });
      expect([wrong.status, wrong.body.status]).toEqual([401, 401]);
      expect(wrong.body.message).toContain('preset analytics');
      // The analytics key in the query string, as the client's WithinQueryParameters sends it; nowhere else.
      expect((await http(`${t.url}/2/status?index=live&x-algolia-application-id=demo&x-algolia-api-key=${secret}`)).status).toBe(200);
      expect((await http(`${t.url}/search-stats?x-algolia-application-id=demo&x-algolia-api-key=${secret}`)).status).toBe(401);
      // An analytics key elsewhere, and no key at all on /2: 401 naming the rule.
      const elsewhere = await http<{ message: string }>(`${t.url}/search-stats`, {
        headers: { 'x-algolia-application-id': 'demo', 'x-algolia-api-key': secret },
      });
      expect([elsewhere.status, elsewhere.body.message]).toEqual([
        401,
        expect.stringContaining('X-Algolia-API-Key authenticates only GET /2/'),
      ]);
      const none = await http<{ message: string; status: number }>(`${t.url}/2/searches?index=live`);
      expect([none.status, none.body.status, none.body.message]).toEqual([401, 401, expect.stringContaining('GET /2/... needs')]);
      // A collector key's secret is no analytics key; a revoked analytics key is none either.
      const collector = (await createCollectorKey(t.url)).body as { secret: string };
      expect((await get('index=live', { 'x-algolia-application-id': 'demo', 'x-algolia-api-key': collector.secret })).status).toBe(401);
      const spare = await http<{ id: string; secret: string }>(`${t.url}/secret`, {
        method: 'POST',
        headers: { ...basicHeader(), 'content-type': 'application/json' },
        body: JSON.stringify({ description: 'spare', preset: 'analytics' }),
      });
      expect((await get('index=live', { 'x-algolia-application-id': 'demo', 'x-algolia-api-key': spare.body.secret })).status).toBe(200);
      expect((await http(`${t.url}/secret/${spare.body.id}`, { method: 'DELETE', headers: basicHeader() })).status).toBe(200);
      expect((await get('index=live', { 'x-algolia-application-id': 'demo', 'x-algolia-api-key': spare.body.secret })).status).toBe(401);
      // The service's own credentials with analytics:read: a JWT and a signed request; without it, 403.
      expect((await get('index=live', jwtHeader({ permissions: ['analytics.read'] }))).status).toBe(200);
      expect((await get('index=live', jwtHeader({ permissions: ['search.read'] }))).status).toBe(403);
      expect((await get('index=live', hmacHeaders(hmacKey.secret))).status).toBe(200);
      // Basic reads /2 too.
      expect((await http(`${t.url}/2/searches/count?index=live`, { headers: basicHeader() })).status).toBe(200);
    });

    it('reads the index names an instance declares, with their language; a name reads one instance', async () => {
      const put = (instance: string, algoliaIndexes: unknown) =>
        http<Record<string, unknown>>(`${t.url}/configuration`, {
          method: 'PUT',
          headers: { ...basicHeader(), 'content-type': 'application/json', 'x-service-instance': instance },
          body: JSON.stringify({ webhookConfig: { url: '' }, algoliaIndexes }),
        });
      const declared = await put('live', { shop_en: { language: 'EN' }, shop_en_price_asc: {}, shop_de: { language: 'de' } });
      expect([declared.status, declared.body.algoliaIndexes]).toEqual([
        200,
        { shop_en: { language: 'en' }, shop_en_price_asc: {}, shop_de: { language: 'de' } },
      ]);
      const read = await http<{ algoliaIndexes: unknown }>(`${t.url}/configuration`, { headers: basicHeader() });
      expect(read.body.algoliaIndexes).toEqual(declared.body.algoliaIndexes);
      expect((await put('stage', { shop_en: {} })).status).toBe(409);
      const instanceName = await put('live', { stage: {} });
      expect([instanceName.status, instanceName.body.message]).toEqual([400, expect.stringContaining('algoliaIndexes.stage')]);
      expect((await put('live', { x: { language: 'not a tag' } })).status).toBe(400);
      const analytics = client();
      const window = { startDate: day, endDate: day };
      expect((await analytics.getSearchesCount({ index: 'shop_en', ...window })).count).toBe(5);
      expect((await analytics.getSearchesCount({ index: 'shop_en_price_asc', ...window })).count).toBe(5);
      expect((await analytics.getSearchesCount({ index: 'shop_de', ...window })).count).toBe(0);
    });

    it('answers each figure as the native answer for the same window (one counting path)', async () => {
      const analytics = client();
      const from = day;
      const to = new Date(Date.parse(day) + DAY).toISOString().slice(0, 10);
      const native = await http<{ totals: Record<string, number> }>(`${t.url}/search-stats?from=${from}&to=${to}&engagement=true`, {
        headers: basicHeader(),
      });
      const window = { index: 'live', startDate: day, endDate: day };
      expect((await analytics.getSearchesCount(window)).count).toBe(native.body.totals.searches);
      expect((await analytics.getUsersCount(window)).count).toBe(native.body.totals.users);
      expect((await analytics.getConversionRate(window)).rate).toBe(native.body.totals.conversion_rate);
      expect((await analytics.getAverageClickPosition(window)).average).toBe(native.body.totals.average_click_position);
    });
  });
}

describe("Algolia's Analytics API: guessing analytics keys", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({ AUTH_FAILURES_PER_MINUTE: '3' });
  });
  afterAll(() => t.close());

  it("counts a failed X-Algolia-API-Key against its address: 429 in Algolia's form beyond it, other addresses unaffected", async () => {
    const key = await http<{ secret: string }>(`${t.url}/secret`, {
      method: 'POST',
      headers: { ...basicHeader(), 'content-type': 'application/json' },
      body: JSON.stringify({ description: 'reports', preset: 'analytics' }),
    });
    expect(key.status).toBe(201);
    // Linux routes all of 127.0.0.0/8 to loopback: each address is a distinct client.
    const status = (apiKey: string, localAddress: string) =>
      http<{ message: string; status: number }>(`${t.url}/2/status?index=live`, {
        headers: { 'x-algolia-application-id': 'demo', 'x-algolia-api-key': apiKey },
        localAddress,
      });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      statuses.push((await status(`guess-${i}`, '127.0.0.2')).status);
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
    const refused = await status(key.body.secret, '127.0.0.2');
    expect([refused.status, refused.body.status, Number(refused.headers['retry-after']) > 0]).toEqual([429, 429, true]);
    expect(algoliaViolations('/2/status?index=live', refused.status, JSON.stringify(refused.body))).toEqual([]);
    expect((await status(key.body.secret, '127.0.0.1')).status).toBe(200);
  });
});
