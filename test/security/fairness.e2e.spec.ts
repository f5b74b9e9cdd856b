import { ProvisioningService, type GeneratedCredentials } from '@app/auth';
import { SearchTermsRepository } from '../../apps/query/src/search-terms/search-terms.repository';
import { basicHeader, hmacHeaders, http, startApp, type HttpResult, type TestApp } from '../support/test-app';
import { storedCounts } from '../support/storage';

const DAY = 24 * 3_600_000;
/** ANALYTICS_CONCURRENCY as these apps set it, and the queue it gives: 4 waiting requests per slot. */
const CONCURRENCY = 2;
const ADMITTED = CONCURRENCY + 4 * CONCURRENCY;

type Term = { search_phrase: string; count: number };

/**
 * Holds one customer's analytics queries until opened: their slots stay taken, as a flood of 30-day lists and
 * exports keeps them, without depending on how fast the engine is. Every query of a list and of an export asks
 * for the newest event first or beside the list, so holding that call holds the request.
 */
function holdQueriesOf(t: TestApp, customer: string): { open(): void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const repository = t.app.get(SearchTermsRepository);
  const newestEvent = repository.newestEvent.bind(repository);
  const spy = jest.spyOn(repository, 'newestEvent').mockImplementation(async (r) => {
    if (r.scope.customer === customer) {
      await opened;
    }
    return newestEvent(r);
  });
  return {
    open: () => {
      open();
      spy.mockRestore();
    },
  };
}

/** Resolves once `count` of the requests have been answered (or after 20 s), with the answers so far. */
async function firstAnswers<T>(requests: Array<Promise<HttpResult<T>>>, count: number): Promise<Array<HttpResult<T>>> {
  const answers: Array<HttpResult<T>> = [];
  for (const r of requests) {
    void r.then(
      (a) => answers.push(a),
      () => undefined,
    );
  }
  const deadline = Date.now() + 20_000;
  while (answers.length < count && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 20));
  }
  return [...answers];
}

function expectRefusal(res: HttpResult): void {
  expect(res.status).toBe(429);
  expect(res.headers['retry-after']).toMatch(/^[1-9][0-9]*$/);
  expect(res.body).toEqual({
    statusCode: 429,
    error: 'Too Many Requests',
    message: expect.stringContaining('ANALYTICS_CONCURRENCY') as unknown,
  });
}

describe('fair sharing of the analytics endpoints between customers (e2e over HTTP, multi-customer)', () => {
  let t: TestApp;
  let shopA: GeneratedCredentials;
  let shopB: GeneratedCredentials;
  const host = (customer: string) => ({ host: `${customer}.api.example.test` });
  const asA = () => ({ ...host('shopa'), ...basicHeader(shopA.basicLogin, shopA.basicPassword) });
  const asB = () => ({ ...host('shopb'), ...basicHeader(shopB.basicLogin, shopB.basicPassword) });

  const sendEvents = (customer: string, secret: string, events: unknown[]) => {
    const body = JSON.stringify({ events });
    return http<{ accepted: number }>(`${t.url}/events`, {
      method: 'POST',
      headers: { ...host(customer), ...hmacHeaders(secret, body) },
      body,
    });
  };

  /** B's terms of the last 30 days: 'boots' 3 times, 'coat' twice, 'scarf' once. */
  const B_TERMS: Term[] = [
    { search_phrase: 'boots', count: 3 },
    { search_phrase: 'coat', count: 2 },
    { search_phrase: 'scarf', count: 1 },
  ];

  beforeAll(async () => {
    t = await startApp({
      BASE_DOMAIN: 'api.example.test',
      SERVICE_BASIC_AUTH: '',
      SERVICE_LEGACY_SECRET: '',
      SEARCH_TERMS_CACHE_MS: '0',
      ANALYTICS_CONCURRENCY: String(CONCURRENCY),
    });
    // What `npm run cli -- customer:create` does.
    const provisioning = t.app.get(ProvisioningService);
    shopA = await provisioning.createCustomer('shopa', ['live']);
    shopB = await provisioning.createCustomer('shopb', ['live']);
    const now = Date.now();
    const aEvents = Array.from({ length: 3_000 }, (_, i) => ({
      phrase: `term ${i % 500}`,
      language: 'en',
      hits: i % 7,
      ts: now - (i % 29) * DAY,
    }));
    expect((await sendEvents('shopa', shopA.legacySecret, aEvents)).body.accepted).toBe(3_000);
    const bEvents = B_TERMS.flatMap(({ search_phrase, count }) =>
      Array.from({ length: count }, (_, i) => ({ phrase: search_phrase, language: 'de', hits: 1, ts: now - i * 3 * DAY })),
    );
    expect((await sendEvents('shopb', shopB.legacySecret, bEvents)).body.accepted).toBe(6);
  });
  afterAll(() => t.close());

  it("refuses A's requests beyond its slots and queue (429, Retry-After), while B is served and A's events are stored once", async () => {
    const hold = holdQueriesOf(t, 'shopa');
    // A floods: 30 requests at once, 30-day lists and CSV exports of the same window.
    const flood = Array.from({ length: 30 }, (_, i) =>
      http<Term[] | string>(`${t.url}/search-terms?since=30d${i % 2 ? '&format=csv' : ''}`, { headers: asA() }),
    );
    try {
      const refused = await firstAnswers(flood, 30 - ADMITTED);
      expect(refused).toHaveLength(30 - ADMITTED);
      refused.forEach(expectRefusal);

      // Meanwhile B: lists, an export and the stats, several at once, all answered with B's counts.
      const [lists, csv, stats] = await Promise.all([
        Promise.all(Array.from({ length: 5 }, () => http<Term[]>(`${t.url}/search-terms?since=30d`, { headers: asB() }))),
        http<string>(`${t.url}/search-terms?since=30d&format=csv`, { headers: asB() }),
        http<{ totals: { searches: number } }>(`${t.url}/search-stats?since=30d`, { headers: asB() }),
      ]);
      for (const list of lists) {
        expect(list.status).toBe(200);
        expect(list.headers['x-total-count']).toBe('3');
        expect(list.body.map(({ search_phrase, count }) => ({ search_phrase, count }))).toEqual(B_TERMS);
      }
      expect(csv.status).toBe(200);
      expect(csv.body).toBe('search_phrase,count\r\nboots,3\r\ncoat,2\r\nscarf,1\r\n');
      expect(stats.status).toBe(200);
      expect(stats.body.totals.searches).toBe(6);

      // A's other requests are not limited: its keys, and a signed POST /events, stored exactly once.
      expect((await http(`${t.url}/secret`, { headers: asA() })).status).toBe(200);
      const before = await storedCounts(t, 'shopa');
      // (A term A has: the lists held above count 500 terms whether they ran before these events or after.)
      const sent = await sendEvents('shopa', shopA.legacySecret, [
        { phrase: 'term 1', language: 'en', hits: 1 },
        { phrase: 'term 2', language: 'en', hits: 0 },
      ]);
      expect(sent.status).toBe(202);
      expect(sent.body.accepted).toBe(2);
      const after = await storedCounts(t, 'shopa');
      expect(after.events - before.events).toBe(2);
      expect(after.rollup - before.rollup).toBe(2);

      // A's queue is still full: one more is refused.
      expectRefusal(await http(`${t.url}/search-terms?since=30d`, { headers: asA() }));

      // Once A's queries run, the admitted requests are all answered in full.
      hold.open();
      const answered = (await Promise.all(flood)).filter((a) => a.status !== 429);
      expect(answered).toHaveLength(ADMITTED);
      for (const a of answered) {
        expect(a.status).toBe(200);
        expect(a.headers['x-total-count']).toBe('500');
        if (typeof a.body === 'string') {
          expect(a.body.split('\r\n')).toHaveLength(1 + 500 + 1);
        } else {
          expect(a.body.length).toBeGreaterThan(0);
        }
      }
    } finally {
      hold.open();
      await Promise.allSettled(flood);
    }
    // The slots are free again.
    expect((await http(`${t.url}/search-terms?since=30d&_end=1`, { headers: asA() })).status).toBe(200);
  });
});

describe('an answer from the answer cache takes no analytics slot (e2e over HTTP)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({ SEARCH_TERMS_CACHE_MS: '60000', ANALYTICS_CONCURRENCY: String(CONCURRENCY) });
  });
  afterAll(() => t.close());

  it('serves a cached answer while the customer has no slot and no place in the queue left', async () => {
    const cached = await http<Term[]>(`${t.url}/search-terms?since=7d`, { headers: basicHeader() });
    expect(cached.status).toBe(200);
    const hold = holdQueriesOf(t, 'demo');
    // Uncached requests (each a window of its own) take every slot and every place in the queue; one more is refused.
    const held = Array.from({ length: ADMITTED + 1 }, (_, i) => http(`${t.url}/search-terms?since=${10 + i}d`, { headers: basicHeader() }));
    try {
      const refused = await firstAnswers(held, 1);
      expect(refused).toHaveLength(1);
      expectRefusal(refused[0]);
      const again = await http<Term[]>(`${t.url}/search-terms?since=7d`, { headers: basicHeader() });
      expect(again.status).toBe(200);
      expect(again.body).toEqual(cached.body);
      hold.open();
      expect((await Promise.all(held)).filter((r) => r.status === 200)).toHaveLength(ADMITTED);
    } finally {
      hold.open();
      await Promise.allSettled(held);
    }
  });
});
