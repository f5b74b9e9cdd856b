import { randomUUID } from 'node:crypto';
import { ClickHouseService, MAX_LIST_PARAM_CHARS } from '@app/clickhouse';
import { NO_SEARCH_ID } from '@app/contracts';
import { DataVersions } from '@app/intake';
import type { EngagementFields } from '../apps/query/src/analytics/engagement';
import { ENGAGEMENT_CSV_COLUMNS } from '../apps/query/src/search-terms/search-terms.csv';
import { termId } from '../apps/query/src/analytics/term-id';
import {
  CUSTOMER,
  INSTANCE,
  eraseUserToken,
  insertInteractions,
  insertSearches,
  type Interaction,
  type Search,
} from './support/engagement';
import { basicHeader, http, startApp, type TestApp } from './support/test-app';

const HOUR = 3_600_000;
const MINUTE = 60_000;

type Engagement = EngagementFields;
type Term = Engagement & { search_phrase: string; count: number };
/**
 * 'shoes': a (stored twice; two clicks, one sent twice; one purchase of two objects worth 30 EUR, and an add-to-cart of
 * an object never clicked) and b (a click at 25).
 */
const SHOES = {
  tracked_searches: 2,
  clicked_searches: 2,
  click_through_rate: 1,
  clicks: 3,
  average_click_position: 29 / 3,
  converted_searches: 1,
  conversion_rate: 0.5,
  revenue: { EUR: 30 },
  added_to_cart_searches: 1,
  add_to_cart_rate: 0.5,
  purchased_searches: 1,
  purchase_rate: 0.5,
  purchase_revenue: { EUR: 30 },
};
type Totals = Engagement & { searches: number; unattributed_clicks: number; unattributed_conversions: number };

const ENGAGEMENT_KEYS = ENGAGEMENT_CSV_COLUMNS;

/**
 * engagement=true on GET /search-terms, /search-stats and /search-terms/{id} over HTTP, with searches and
 * interactions written straight into storage as the intake stores them (search ids sent, clicks and conversions),
 * checked number by number against the contract (docs/architecture.md, "Clicks and conversions").
 */
describe('engagement=true (e2e over HTTP)', () => {
  let t: TestApp;
  let ch: ClickHouseService;
  const now = Date.now();
  const id = () => randomUUID();
  const [a, b, c, d, g, x] = [id(), id(), id(), id(), id(), id()];
  const search = (s: Partial<Search> & Pick<Search, 'phrase' | 'ts'>): Search => ({ language: 'en', bot: false, hits: 3, ...s });
  const click = (searchId: string, objectId: string, position: number, at: number, userToken?: string): Interaction => ({
    type: 'click',
    searchId,
    objectId,
    position,
    subtype: '',
    micros: 0,
    currency: '',
    ts: at,
    userToken,
  });
  const conversion = (searchId: string, objectId: string, objectIndex: number, micros: number, at: number): Interaction => ({
    type: 'conversion',
    searchId,
    objectId,
    objectIndex,
    position: 0,
    subtype: 'purchase',
    micros,
    currency: 'EUR',
    ts: at,
    userToken: 'shopper-1',
  });

  const written = () => t.app.get(DataVersions).bump(CUSTOMER, INSTANCE);
  const addSearches = async (s: Search[]) => {
    await insertSearches(ch, s);
    written();
  };
  const addInteractions = async (i: Interaction[]) => {
    await insertInteractions(ch, i);
    written();
  };
  const get = <T>(path: string) => http<T>(`${t.url}${path}`, { headers: basicHeader() });
  const pick = (o: object) => Object.fromEntries(ENGAGEMENT_KEYS.map((k) => [k, (o as Record<string, unknown>)[k]]));

  beforeAll(async () => {
    t = await startApp();
    ch = t.app.get(ClickHouseService);
    await addSearches([
      search({ id: a, phrase: 'shoes', ts: now - 2 * HOUR, hits: 10 }),
      // The same search stored twice: one tracked search.
      search({ id: a, phrase: 'shoes', ts: now - 2 * HOUR, hits: 10 }),
      search({ id: b, phrase: 'shoes', ts: now - 3 * HOUR, hits: 5 }),
      // Known, but found nothing: its clicks count nowhere.
      search({ id: c, phrase: 'shoes', ts: now - 3 * HOUR, hits: 0 }),
      search({ id: d, phrase: 'dress', ts: now - HOUR }),
      // Sent without an id: never tracked.
      search({ phrase: 'dress', ts: now - HOUR }),
      search({ id: g, phrase: 'dress', ts: now - HOUR, bot: true }),
    ]);
    const at = now - 30 * MINUTE;
    await addInteractions([
      click(a, 'p1', 1, at, 'shopper-1'),
      // Sent twice: counts once.
      click(a, 'p1', 1, at, 'shopper-1'),
      click(a, 'p2', 3, at + 1, 'shopper-1'),
      click(b, 'p1', 25, at),
      click(c, 'p9', 1, at),
      click(d, 'p3', 2, at, 'shopper-2'),
      click(g, 'p4', 1, at),
      // Its search has not arrived yet.
      click(x, 'p5', 2, at),
      // One conversion event of two objects with a value: the value on the first object's row only.
      conversion(a, 'p1', 0, 30_000_000, at + 2),
      conversion(a, 'p2', 1, 0, at + 2),
      // An add-to-cart without a value: a's conversions by subtype (it converted already).
      { ...conversion(a, 'p8', 0, 0, at + 3), subtype: 'addToCart' },
      // Without a search.
      conversion(NO_SEARCH_ID, 'p1', 0, 5_000_000, at),
      // Neither a view nor a filter-only event counts.
      { ...click(a, 'p7', 4, at), type: 'view' },
      { ...conversion(a, '', 0, 1_000_000, at) },
    ]);
  }, 60_000);
  afterAll(() => t.close());

  it('adds nothing without engagement=true', async () => {
    const list = await get<Term[]>('/search-terms?language=en');
    expect(list.body.map((x) => Object.keys(x).sort())).toEqual([
      ['count', 'id', 'search_phrase', 'status'],
      ['count', 'id', 'search_phrase', 'status'],
    ]);
    const stats = await get<{ totals: object; series: object[] }>('/search-stats?language=en');
    expect(Object.keys(stats.body.totals).sort()).toEqual(['distinct_terms', 'searches', 'users', 'zero_hit_rate', 'zero_hit_searches']);
    expect(Object.keys(stats.body.series[0]).sort()).toEqual(['searches', 'start', 'users', 'zero_hit_rate', 'zero_hit_searches']);
  });

  it('never serves a cached answer with the fields for one without, or the other way round', async () => {
    const detail = `/search-terms/${termId(CUSTOMER, INSTANCE, 'shoes')}?language=en`;
    for (const path of ['/search-terms?language=en', '/search-stats?language=en', detail]) {
      const plain = JSON.stringify((await get<object>(path)).body);
      const engaged = JSON.stringify((await get<object>(`${path}&engagement=true`)).body);
      expect(engaged).toContain('"tracked_searches"');
      expect(JSON.stringify((await get<object>(path)).body)).toBe(plain);
      expect(plain).not.toContain('"tracked_searches"');
      expect(JSON.stringify((await get<object>(`${path}&engagement=true`)).body)).toBe(engaged);
    }
  });

  it('counts a click before its search as unattributed, then for its search once it arrives', async () => {
    const before = await get<{ totals: Totals }>('/search-stats?engagement=true');
    expect(before.body.totals).toMatchObject({ tracked_searches: 3, clicks: 4, unattributed_clicks: 1, unattributed_conversions: 1 });
    const dressBefore = (await get<Term[]>('/search-terms?engagement=true')).body.find((x) => x.search_phrase === 'dress');
    expect(dressBefore).toMatchObject({ count: 2, tracked_searches: 1, clicked_searches: 1, clicks: 1 });

    await addSearches([search({ id: x, phrase: 'dress', ts: now - 4 * HOUR, hits: 4 })]);
    const after = await get<{ totals: Totals }>('/search-stats?engagement=true');
    expect(after.body.totals).toMatchObject({ tracked_searches: 4, clicks: 5, unattributed_clicks: 0, unattributed_conversions: 1 });
  });

  it('GET /search-terms: the fields of each term, exactly', async () => {
    const list = await get<Term[]>('/search-terms?engagement=true');
    expect(list.status).toBe(200);
    expect(list.body.map((x) => [x.search_phrase, x.count])).toEqual([
      ['dress', 3],
      ['shoes', 3],
    ]);
    expect(pick(list.body[0])).toEqual({
      tracked_searches: 2,
      clicked_searches: 2,
      click_through_rate: 1,
      clicks: 2,
      average_click_position: 2,
      converted_searches: 0,
      conversion_rate: 0,
      revenue: {},
      added_to_cart_searches: 0,
      add_to_cart_rate: 0,
      purchased_searches: 0,
      purchase_rate: 0,
      purchase_revenue: {},
    });
    expect(pick(list.body[1])).toEqual(SHOES);
    // With bots: g and its click too.
    const bots = await get<Term[]>('/search-terms?engagement=true&includeBotTraffic=true');
    expect(bots.body.find((x) => x.search_phrase === 'dress')).toMatchObject({ tracked_searches: 3, clicks: 3 });
    // Another language: nothing tracked, rates null.
    await addSearches([search({ phrase: 'hut', language: 'de', ts: now - HOUR })]);
    const de = await get<Term[]>('/search-terms?engagement=true&language=de');
    expect(pick(de.body[0])).toEqual({
      tracked_searches: 0,
      clicked_searches: 0,
      click_through_rate: null,
      clicks: 0,
      average_click_position: null,
      converted_searches: 0,
      conversion_rate: null,
      revenue: {},
      added_to_cart_searches: 0,
      add_to_cart_rate: null,
      purchased_searches: 0,
      purchase_rate: null,
      purchase_revenue: {},
    });
  });

  it('leaves out an erased user token at once', async () => {
    await eraseUserToken(ch, 'shopper-2');
    written();
    const dress = (await get<Term[]>('/search-terms?engagement=true&language=en')).body.find((x) => x.search_phrase === 'dress');
    expect(dress).toMatchObject({ tracked_searches: 2, clicked_searches: 1, clicks: 1, click_through_rate: 0.5 });
  });

  it('sort=no_clicks: the largest tracked_searches - clicked_searches first, only with hits=true', async () => {
    const list = await get<Term[]>('/search-terms?sort=no_clicks&language=en');
    expect(list.body.map((x) => [x.search_phrase, x.tracked_searches - x.clicked_searches])).toEqual([
      ['dress', 1],
      ['shoes', 0],
    ]);
    // The zero-result list: the fields of the phrase's tracked searches (those found results).
    const zeroList = await get<Term[]>('/search-terms?hits=false&engagement=true&language=en');
    expect(zeroList.body.map((x) => [x.search_phrase, x.count, x.tracked_searches, x.clicks])).toEqual([['shoes', 1, 2, 3]]);
    // Its CSV and a page past the end, whose total is counted apart.
    const csv = await get<string>('/search-terms?sort=no_clicks&language=en&format=csv');
    expect(csv.status).toBe(200);
    expect(csv.headers['x-total-count']).toBe('2');
    expect(
      csv.body
        .split('\r\n')
        .slice(1, 3)
        .map((line) => line.split(',')[0]),
    ).toEqual(['dress', 'shoes']);
    const past = await get<Term[]>('/search-terms?sort=no_clicks&language=en&_start=10&_end=20');
    expect([past.status, past.headers['x-total-count'], past.body]).toEqual([200, '2', []]);
    const zero = await get<{ message: string }>('/search-terms?sort=no_clicks&hits=false');
    expect(zero.status).toBe(400);
    expect(zero.body.message).toMatch(/sort=no_clicks is only allowed with hits=true/);
  });

  it('the CSV gains the columns in the contract order', async () => {
    const csv = await get<string>('/search-terms?engagement=true&language=en&format=csv');
    expect(csv.body).toBe(
      'search_phrase,count,last_hits,tracked_searches,clicked_searches,click_through_rate,clicks,average_click_position,' +
        'converted_searches,conversion_rate,revenue,added_to_cart_searches,add_to_cart_rate,purchased_searches,purchase_rate,' +
        'purchase_revenue\r\n' +
        'dress,3,3,2,1,0.5,1,2,0,0,,0,0,0,0,\r\n' +
        `shoes,3,10,2,2,1,3,${29 / 3},1,0.5,EUR:30,1,0.5,1,0.5,EUR:30\r\n`,
    );
    const de = await get<string>('/search-terms?engagement=true&language=de&format=csv');
    expect(de.body.split('\r\n')[1]).toMatch(/^hut,1,\d+,0,0,,0,,0,,,0,,0,,$/);
  });

  it('GET /search-stats: totals, the previous window and each bucket', async () => {
    const stats = await get<{ totals: Totals; previous: Totals; series: Array<Engagement & { start: string }> }>(
      '/search-stats?engagement=true&language=en&compare=previous&interval=hour',
    );
    expect(stats.status).toBe(200);
    expect(stats.body.totals).toMatchObject({
      tracked_searches: 4,
      clicked_searches: 3,
      click_through_rate: 0.75,
      clicks: 4,
      average_click_position: 31 / 4,
      converted_searches: 1,
      conversion_rate: 0.25,
      revenue: { EUR: 30 },
      unattributed_clicks: 0,
      unattributed_conversions: 1,
    });
    expect(stats.body.previous).toMatchObject({ tracked_searches: 0, click_through_rate: null, revenue: {}, unattributed_clicks: 0 });
    const hourOf = (ms: number) => new Date(Math.floor(ms / HOUR) * HOUR).toISOString().replace('.000Z', 'Z');
    const busy = stats.body.series.filter((s) => s.tracked_searches > 0).map((s) => [s.start, s.tracked_searches, s.clicks]);
    expect(busy).toEqual([
      [hourOf(now - 4 * HOUR), 1, 1],
      [hourOf(now - 3 * HOUR), 1, 1],
      [hourOf(now - 2 * HOUR), 1, 2],
      [hourOf(now - HOUR), 1, 0],
    ]);
    expect(stats.body.series.every((s) => ENGAGEMENT_KEYS.every((k) => k in s))).toBe(true);
  });

  it('GET /search-terms/{id}: the fields, positions 1 to 21 and the most clicked objects', async () => {
    const detail = await get<Engagement & { positions: Array<{ position: number; clicks: number }>; objects: unknown[] }>(
      `/search-terms/${termId(CUSTOMER, INSTANCE, 'shoes')}?engagement=true`,
    );
    expect(detail.status).toBe(200);
    expect(pick(detail.body)).toEqual(SHOES);
    expect(detail.body.positions).toHaveLength(21);
    expect(detail.body.positions.filter((p) => p.clicks > 0)).toEqual([
      { position: 1, clicks: 1 },
      { position: 3, clicks: 1 },
      { position: 21, clicks: 1 },
    ]);
    expect(detail.body.objects).toEqual([
      { object_id: 'p1', clicks: 2, conversions: 1 },
      { object_id: 'p2', clicks: 1, conversions: 1 },
    ]);
    // The list's entries and the stats' totals have the same positions (the totals: of every term).
    type Positions = { positions: Array<{ position: number; clicks: number }> };
    const list = await get<Array<Positions & { search_phrase: string }>>('/search-terms?engagement=true');
    expect(list.body.find((x) => x.search_phrase === 'shoes')?.positions).toEqual(detail.body.positions);
    const dress = list.body.find((x) => x.search_phrase === 'dress')!.positions;
    const stats = await get<{ totals: Positions; previous?: Positions }>('/search-stats?engagement=true&compare=previous');
    expect(stats.body.totals.positions).toEqual(
      detail.body.positions.map((p, i) => ({ position: p.position, clicks: p.clicks + dress[i].clicks })),
    );
    expect(stats.body.previous).not.toHaveProperty('positions');
    expect(await get<Positions[]>('/search-terms').then((r) => r.body.every((x) => !('positions' in x)))).toBe(true);
    const plain = await get<object>(`/search-terms/${termId(CUSTOMER, INSTANCE, 'shoes')}`);
    expect(Object.keys(plain.body).sort()).toEqual([
      'count',
      'filters',
      'id',
      'search_phrase',
      'series',
      'status',
      'variants',
      'zero_hit_count',
    ]);
  });
  it('GET /clicked-objects: the objects clicked after the searches, with their searches, conversions and purchases', async () => {
    type ClickedObject = { object_id: string; clicks: number; clicked_searches: number; purchase_revenue: object };
    const all = await get<ClickedObject[]>('/clicked-objects');
    expect(all.headers['x-total-count']).toBe('3');
    // p3's only click was the erased shopper's; p8 was added to the cart but never clicked; p4's search is a bot's; p9's
    // found nothing (not tracked); p5's search arrived after its click.
    expect(all.body).toEqual([
      {
        object_id: 'p1',
        clicks: 2,
        clicked_searches: 2,
        conversions: 1,
        added_to_cart_searches: 0,
        purchased_searches: 1,
        purchase_revenue: { EUR: 30 },
      },
      {
        object_id: 'p2',
        clicks: 1,
        clicked_searches: 1,
        conversions: 1,
        added_to_cart_searches: 0,
        purchased_searches: 1,
        purchase_revenue: {},
      },
      {
        object_id: 'p5',
        clicks: 1,
        clicked_searches: 1,
        conversions: 0,
        added_to_cart_searches: 0,
        purchased_searches: 0,
        purchase_revenue: {},
      },
    ]);
    expect((await get<ClickedObject[]>('/clicked-objects?phrase=%20Shoes')).body.map((o) => o.object_id)).toEqual(['p1', 'p2']);
    const page = await get<ClickedObject[]>('/clicked-objects?_start=1&_end=2');
    expect([page.headers['x-total-count'], page.body.map((o) => o.object_id)]).toEqual(['3', ['p2']]);
    const past = await get<ClickedObject[]>('/clicked-objects?_start=5&_end=6');
    expect([past.headers['x-total-count'], past.body]).toEqual(['3', []]);
    const csv = await get<string>('/clicked-objects?format=csv&phrase=shoes');
    expect(csv.body).toBe(
      'object_id,clicks,clicked_searches,conversions,added_to_cart_searches,purchased_searches,purchase_revenue\r\n' +
        'p1,2,2,1,0,1,EUR:30\r\np2,1,1,1,0,1,\r\n',
    );
  });

  it('counts a search id stored again later in the window of its first copy only', async () => {
    const y = id();
    await addSearches([
      search({ id: y, phrase: 'mantel', language: 'fr', ts: now - 30 * HOUR }),
      search({ id: y, phrase: 'mantel neu', language: 'fr', ts: now - 2 * HOUR }),
    ]);
    await addInteractions([click(y, 'p1', 2, now - MINUTE)]);
    const terms = async (since: string) =>
      Object.fromEntries(
        (await get<Term[]>(`/search-terms?language=fr&since=${since}&engagement=true`)).body.map((x) => [
          x.search_phrase,
          [x.count, x.tracked_searches, x.clicks],
        ]),
      );
    // Within a day only the later copy lies: a search, but not a tracked one (it was tracked the day before).
    expect(await terms('1d')).toEqual({ 'mantel neu': [1, 0, 0] });
    expect(await terms('2d')).toEqual({ mantel: [1, 1, 1], 'mantel neu': [1, 0, 0] });
    const stats = await get<{ totals: Totals }>('/search-stats?language=fr&since=1d&engagement=true');
    expect(stats.body.totals).toMatchObject({ searches: 1, tracked_searches: 0, clicks: 0 });
  });

  it('reads the figures and languages of a page of long phrases in queries whose lists fit a server URL', async () => {
    // 30 phrases of 300 "ü" (1,800 characters each in a URL): a list of all of them would not fit.
    const phrases = Array.from({ length: 30 }, (_, i) => `${String(i).padStart(2, '0')} ${'ü'.repeat(300)}`);
    const ids = phrases.map(() => id());
    await addSearches(
      phrases.flatMap((phrase, i) => [
        search({ id: ids[i], phrase, language: 'it', ts: now - 2 * HOUR }),
        search({ phrase, language: 'it', ts: now - 2 * HOUR, hits: 0 }),
      ]),
    );
    await addInteractions(ids.map((searchId) => click(searchId, 'p1', 1, now - HOUR)));
    const query = jest.spyOn(ch, 'query');
    try {
      const list = await get<Term[]>('/search-terms?language=it&engagement=true&_end=100');
      expect(list.status).toBe(200);
      expect(list.body.map((x) => [x.search_phrase, x.tracked_searches, x.clicks])).toEqual(phrases.map((p) => [p, 1, 1]));
      const zero = await get<Array<{ search_phrase: string; status: { unhandled_languages: string[] } }>>(
        '/search-terms?hits=false&_end=1000',
      );
      const long = zero.body.filter((x) => phrases.includes(x.search_phrase));
      expect(long.map((x) => x.status.unhandled_languages)).toEqual(phrases.map(() => ['it']));
      const lists = query.mock.calls.map(([, params]) => params?.phrases).filter((l): l is string[] => Array.isArray(l));
      expect(
        lists
          .flat()
          .filter((p) => phrases.includes(p))
          .sort(),
        // The page's engagement figures, its positions, and the zero-result list's languages (last_hits: by term ids).
      ).toEqual([...phrases, ...phrases, ...phrases].sort());
      const inUrl = (list: string[]) => encodeURIComponent(`[${list.map((p) => `'${p}'`).join(',')}]`).length;
      expect(Math.max(...lists.map(inUrl))).toBeLessThanOrEqual(MAX_LIST_PARAM_CHARS);
    } finally {
      query.mockRestore();
    }
  });
  it('orders by the rates and the mean position, both ways, a null figure last; with hits=all; the CSV alike', async () => {
    // Portuguese: bolsa (clicked at 4, converted), sapatos (tracked, never clicked), chapéu (no id: nothing tracked),
    // guarda-chuva (found nothing: only with hits=all).
    const [bolsa, sapatos] = [id(), id()];
    await addSearches([
      search({ id: bolsa, phrase: 'bolsa', language: 'pt', ts: now - 2 * HOUR }),
      search({ id: sapatos, phrase: 'sapatos', language: 'pt', ts: now - 2 * HOUR }),
      search({ phrase: 'chapéu', language: 'pt', ts: now - 2 * HOUR }),
      search({ phrase: 'guarda-chuva', language: 'pt', ts: now - 2 * HOUR, hits: 0 }),
    ]);
    await addInteractions([click(bolsa, 'p1', 4, now - HOUR), conversion(bolsa, 'p1', 0, 0, now - HOUR)]);
    const order = async (query: string) => {
      const res = await get<Term[]>(`/search-terms?language=pt&${query}`);
      expect([query, res.status]).toEqual([query, 200]);
      return res.body.map((x) => x.search_phrase);
    };
    const rates = ['click_through_rate', 'conversion_rate'];
    for (const sort of rates) {
      expect(await order(`sort=${sort}`)).toEqual(['bolsa', 'sapatos', 'chapéu']);
      expect(await order(`sort=${sort}&order=asc`)).toEqual(['sapatos', 'bolsa', 'chapéu']);
      expect(await order(`sort=${sort}&hits=all`)).toEqual(['bolsa', 'sapatos', 'chapéu', 'guarda-chuva']);
    }
    // Only bolsa has a click: the others' mean is null, last in both orders, then by phrase.
    expect(await order('sort=average_click_position')).toEqual(['bolsa', 'chapéu', 'sapatos']);
    expect(await order('sort=average_click_position&order=asc')).toEqual(['bolsa', 'chapéu', 'sapatos']);
    expect(await order('sort=no_clicks')).toEqual(['sapatos', 'bolsa', 'chapéu']);
    expect(await order('sort=no_clicks&order=asc')).toEqual(['bolsa', 'chapéu', 'sapatos']);
    // Each implies engagement=true.
    const [first] = (await get<Term[]>('/search-terms?language=pt&sort=click_through_rate')).body;
    expect(first).toMatchObject({ search_phrase: 'bolsa', tracked_searches: 1, click_through_rate: 1, average_click_position: 4 });
    const csv = await get<string>('/search-terms?language=pt&sort=click_through_rate&order=asc&format=csv');
    expect([csv.status, csv.headers['x-total-count']]).toEqual([200, '3']);
    expect(
      csv.body
        .split('\r\n')
        .slice(1, -1)
        .map((line) => line.split(',')[0]),
    ).toEqual(['sapatos', 'bolsa', 'chapéu']);
    // Nothing to click without results, and rising has one direction.
    const zero = await get<{ message: string }>('/search-terms?sort=conversion_rate&hits=false');
    expect([zero.status, zero.body.message]).toEqual([
      400,
      'sort=conversion_rate is only allowed with hits=true or hits=all (a search without results cannot be clicked)',
    ]);
    const rising = await get<{ message: string }>('/search-terms?sort=rising&order=desc');
    expect([rising.status, rising.body.message]).toEqual([400, 'order is not allowed with sort=rising']);
  });
});
