import { LEGACY_SECRET, basicHeader, createKey, hmacHeaders, http, jwtHeader, startApp, type TestApp } from './support/test-app';

interface Term {
  id: string;
  search_phrase: string;
  count: number;
  status: { handled: boolean; handlers: Array<{ type: string; id: string }>; unhandled_languages?: string[] } | null;
}

const HOUR = 3_600_000;

describe('GET /search-terms (e2e over HTTP)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  const send = async (events: object[]) => {
    const body = JSON.stringify({ events });
    const res = await http<{ accepted: number; rejected: unknown[] }>(`${t.url}/events`, {
      method: 'POST',
      headers: hmacHeaders(LEGACY_SECRET, body),
      body,
    });
    expect(res.body.rejected).toEqual([]);
  };
  const many = (n: number, event: object) => Array.from({ length: n }, () => event);
  const terms = (query: string, headers = basicHeader()) => http<Term[]>(`${t.url}/search-terms${query}`, { headers });
  const counts = async (query: string) => Object.fromEntries((await terms(query)).body.map((x) => [x.search_phrase, x.count]));

  it('pages add up to X-Total-Count without overlap, ordered by count desc then phrase asc', async () => {
    const events = Array.from({ length: 25 }, (_, i) =>
      many(1 + (i % 7), { phrase: `page term ${String.fromCharCode(97 + i)}`, language: 'pa', hits: 1 }),
    ).flat();
    await send(events);
    const all = await terms('?language=pa&_end=1000');
    expect(all.status).toBe(200);
    expect(all.headers['x-total-count']).toBe('25');
    expect(all.headers['access-control-expose-headers']).toBe('X-Total-Count, X-Data-Updated-At, Retry-After');
    const sorted = [...all.body].sort((a, b) => b.count - a.count || a.search_phrase.localeCompare(b.search_phrase));
    expect(all.body).toEqual(sorted);
    const pages: Term[] = [];
    for (let start = 0; start < 30; start += 10) {
      const page = await terms(`?language=pa&_start=${start}&_end=${start + 10}`);
      expect(page.headers['x-total-count']).toBe('25');
      expect(page.body.length).toBe(Math.max(0, Math.min(10, 25 - start)));
      pages.push(...page.body);
    }
    expect(pages).toEqual(all.body);
    expect(new Set(pages.map((p) => p.id)).size).toBe(25);
    const past = await terms('?language=pa&_start=100&_end=110');
    expect(past.body).toEqual([]);
    expect(past.headers['x-total-count']).toBe('25');
  });

  it('defaults to since=1d, hits=true, no bots, 10 items, status null', async () => {
    await send(Array.from({ length: 12 }, (_, i) => ({ phrase: `default ${i}`, language: 'df', hits: 2 })));
    const res = await terms('?language=df');
    expect(res.body).toHaveLength(10);
    expect(res.body.every((x) => x.status === null && x.count === 1)).toBe(true);
  });

  it('filters by language (case-insensitive)', async () => {
    await send([...many(2, { phrase: 'schuhe', language: 'lg-de', hits: 1 }), { phrase: 'shoes', language: 'lg-en', hits: 1 }]);
    expect(await counts('?language=lg-de')).toEqual({ schuhe: 2 });
    expect(await counts('?language=LG-EN')).toEqual({ shoes: 1 });
  });

  it('excludes bots by default and includes them on request', async () => {
    await send([
      { phrase: 'crawled', language: 'bt', hits: 1, userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' },
      { phrase: 'crawled', language: 'bt', hits: 1, bot: true },
      { phrase: 'crawled', language: 'bt', hits: 1 },
    ]);
    expect(await counts('?language=bt')).toEqual({ crawled: 1 });
    expect(await counts('?language=bt&includeBotTraffic=true')).toEqual({ crawled: 3 });
    expect(await counts('?language=bt&includeBotTraffic=false')).toEqual({ crawled: 1 });
  });

  it('splits one phrase between hits=true and hits=false', async () => {
    await send([
      ...many(3, { phrase: 'red dress', language: 'hs', hits: 4 }),
      ...many(2, { phrase: 'red dress', language: 'hs', hits: 0 }),
    ]);
    const found = await terms('?language=hs&hits=true');
    const missing = await terms('?language=hs&hits=false');
    expect(found.body.map((x) => [x.search_phrase, x.count, x.status])).toEqual([['red dress', 3, null]]);
    expect(missing.body.map((x) => [x.search_phrase, x.count, x.status])).toEqual([['red dress', 2, { handled: false, handlers: [] }]]);
    expect(found.body[0].id).toBe(missing.body[0].id);
  });

  it('merges differently written phrases after normalisation', async () => {
    await send([
      { phrase: 'Blue  HAT', language: 'nm', hits: 1 },
      { phrase: ' blue hat ', language: 'nm', hits: 1 },
      { phrase: 'BLUE\thAt', language: 'nm', hits: 1 },
      { phrase: 'Gru\u0308n', language: 'nm', hits: 1 },
      { phrase: 'GR\u00dcN', language: 'nm', hits: 1 },
    ]);
    expect(await counts('?language=nm')).toEqual({ 'blue hat': 3, 'gr\u00fcn': 2 });
  });

  it("counts whole hours from the hour of now - since and excludes events before the window's first hour", async () => {
    // Stay clear of an hour boundary between this computation and the server's.
    if (HOUR - (Date.now() % HOUR) < 5000) {
      await new Promise((r) => setTimeout(r, HOUR - (Date.now() % HOUR) + 100));
    }
    const firstHour = Math.floor((Date.now() - 24 * HOUR) / HOUR) * HOUR;
    await send([
      { phrase: 'edge in', language: 'wn', hits: 1, ts: firstHour },
      { phrase: 'edge in', language: 'wn', hits: 1, ts: firstHour + 59 * 60 * 1000 },
      { phrase: 'edge out', language: 'wn', hits: 1, ts: firstHour - 1 },
      { phrase: 'two days', language: 'wn', hits: 1, ts: Date.now() - 47 * HOUR },
      { phrase: 'ten days', language: 'wn', hits: 1, ts: Date.now() - 10 * 24 * HOUR },
    ]);
    expect(await counts('?language=wn')).toEqual({ 'edge in': 2 });
    expect(await counts('?language=wn&since=2d')).toEqual({ 'edge in': 2, 'edge out': 1, 'two days': 1 });
    expect(await counts('?language=wn&since=30d')).toEqual({ 'edge in': 2, 'edge out': 1, 'two days': 1, 'ten days': 1 });
  });

  it('marks a zero-result term handled while a synonym handles it, and unhandled when it is deleted', async () => {
    await send([...many(2, { phrase: 'Winter Boots', language: 'zr', hits: 0 }), { phrase: 'snow shoes', language: 'zr', hits: 0 }]);
    const status = async (query = '?language=zr&hits=false') =>
      Object.fromEntries((await terms(query)).body.map((x) => [x.search_phrase, x.status]));
    expect(await status()).toEqual({ 'winter boots': { handled: false, handlers: [] }, 'snow shoes': { handled: false, handlers: [] } });
    const save = (path: string, body: object) =>
      http(`${t.url}${path}`, {
        method: 'PUT',
        headers: { ...basicHeader(), 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await save('/entities/synonym/syn-1', { searchPhrases: ['WINTER  boots'] })).status).toBe(201);
    expect((await save('/entities/landingpage/lp-en', { searchPhrases: ['snow shoes'], language: 'en' })).status).toBe(201);
    expect(await status()).toEqual({
      'winter boots': { handled: true, handlers: [{ type: 'synonym', id: 'syn-1' }] },
      'snow shoes': { handled: false, handlers: [] }, // handled in English only
    });
    // Across languages it is still unhandled: it found nothing in zr, and the entity is for en.
    expect((await status('?hits=false&_end=1000'))['snow shoes']).toEqual({
      handled: false,
      handlers: [{ type: 'landingpage', id: 'lp-en' }],
      unhandled_languages: ['zr'],
    });
    await save('/entities/synonym/syn-1?autosave=true', { searchPhrases: [] });
    expect((await status())['winter boots']?.handled).toBe(true);
    expect((await http(`${t.url}/entities/synonym/syn-1`, { method: 'DELETE', headers: basicHeader() })).status).toBe(200);
    expect((await status())['winter boots']).toEqual({ handled: false, handlers: [] });
  });

  it('without a language filter, a term is handled only in the languages an entity covers: unhandled_languages', async () => {
    const unhandledTotal = async () => Number((await terms('?hits=false&handled=false&_end=1')).headers['x-total-count']);
    const before = await unhandledTotal();
    await send([
      ...many(2, { phrase: 'jacke', language: 'de', hits: 0 }),
      { phrase: 'jacke', language: 'de-ch', hits: 0 },
      // Found results in de-ch: only its zero-result language counts.
      { phrase: 'mantel', language: 'de', hits: 0 },
      { phrase: 'mantel', language: 'de-ch', hits: 3 },
      { phrase: 'schal', language: 'de-ch', hits: 0 },
      { phrase: 'muetze', language: 'de', hits: 0 },
      { phrase: 'muetze', language: 'de-ch', hits: 0 },
      // No entity at all: every language it found nothing in.
      { phrase: 'handschuh', language: 'de-ch', hits: 0 },
      { phrase: 'handschuh', language: 'de', hits: 0 },
    ]);
    expect(await unhandledTotal()).toBe(before + 5);
    const save = (path: string, body: object) =>
      http(`${t.url}${path}`, {
        method: 'PUT',
        headers: { ...basicHeader(), 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await save('/entities/synonym/syn-de', { searchPhrases: ['jacke', 'mantel', 'schal'], language: 'de' })).status).toBe(201);
    expect((await save('/entities/synonym/syn-all', { searchPhrases: ['muetze'] })).status).toBe(201);
    const statuses = async (query: string) =>
      Object.fromEntries(
        (await terms(`${query}&_end=1000`)).body
          .filter((x) => ['jacke', 'mantel', 'schal', 'muetze', 'handschuh'].includes(x.search_phrase))
          .map((x) => [x.search_phrase, x.status]),
      );
    const de = [{ type: 'synonym', id: 'syn-de' }];
    const all = [{ type: 'synonym', id: 'syn-all' }];
    expect(await statuses('?hits=false')).toEqual({
      jacke: { handled: false, handlers: de, unhandled_languages: ['de-ch'] },
      mantel: { handled: true, handlers: de, unhandled_languages: [] },
      schal: { handled: false, handlers: de, unhandled_languages: ['de-ch'] },
      muetze: { handled: true, handlers: all, unhandled_languages: [] },
      handschuh: { handled: false, handlers: [], unhandled_languages: ['de', 'de-ch'] },
    });
    // handled=false lists exactly the terms with unhandled languages, handled=true the others.
    expect(await unhandledTotal()).toBe(before + 3);
    expect(Object.keys(await statuses('?hits=false&handled=false')).sort()).toEqual(['handschuh', 'jacke', 'schal']);
    expect(Object.keys(await statuses('?hits=false&handled=true')).sort()).toEqual(['mantel', 'muetze']);
    // With a language filter, the status of that language alone, as before.
    expect(await statuses('?hits=false&language=de-ch')).toEqual({
      jacke: { handled: false, handlers: [] },
      schal: { handled: false, handlers: [] },
      muetze: { handled: true, handlers: all },
      handschuh: { handled: false, handlers: [] },
    });
    // The CSV says the same.
    const csv = await http<string>(`${t.url}/search-terms?hits=false&handled=false&format=csv&_end=1000`, { headers: basicHeader() });
    expect(csv.body.split('\r\n').filter((line) => /^(jacke|schal|mantel|muetze|handschuh),/.test(line))).toEqual([
      'jacke,3,false,synonym:syn-de',
      'handschuh,2,false,',
      'schal,1,false,synonym:syn-de',
    ]);
    // The term's detail too.
    const id = (await terms('?hits=false&_end=1000')).body.find((x) => x.search_phrase === 'jacke')!.id;
    const detail = await http<{ status: object }>(`${t.url}/search-terms/${id}`, { headers: basicHeader() });
    expect(detail.body.status).toEqual({ handled: false, handlers: de, unhandled_languages: ['de-ch'] });
  });

  it.each([
    ['since=0d', 'since'],
    ['since=1w', 'since'],
    ['since=abc', 'since'],
    ['since=401d', 'since must be at most 400d'],
    ['since=1d&since=2d', 'since'],
    ['_start=-1', '_start'],
    ['_start=x', '_start'],
    ['_start=5&_end=5', '_end'],
    ['_end=1001', '_end'],
    ['_start=10&_end=1011', '_end'],
    ['hits=yes', 'hits must be true, false or all'],
    ['includeBotTraffic=1', 'includeBotTraffic must be true or false'],
    ['language=de_DE', 'language must contain only letters and -'],
    ['language=d%C3%A9', 'language must contain only letters and -'],
    ['unknown=1', 'property unknown should not exist'],
  ])('answers 400 naming the parameter for %p', async (query, named) => {
    const res = await terms(`?${query}`);
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain(named);
  });

  it('accepts since up to the retention', async () => {
    expect((await terms('?since=400d')).status).toBe(200);
  });

  it('needs search:read through JWT (search.read), HMAC or Basic', async () => {
    expect((await terms('?language=pa', jwtHeader({ permissions: ['search.read'] }))).status).toBe(200);
    expect((await terms('?language=pa', jwtHeader({ permissions: ['search.write'] }))).status).toBe(403);
    const reader = await createKey(t.url, ['search:read']);
    expect((await terms('?language=pa', hmacHeaders(reader.secret))).status).toBe(200);
    expect((await terms('?language=pa', hmacHeaders(LEGACY_SECRET))).status).toBe(403);
    expect((await terms('?language=pa', {})).status).toBe(401);
  });
});
