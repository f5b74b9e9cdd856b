import { randomUUID } from 'node:crypto';
import { ClickHouseService } from '@app/clickhouse';
import { personalHash } from '@app/contracts';
import { DimensionRefresh } from '../apps/query/src/analytics/dimension-refresh';
import { EngagementRefresh } from '../apps/query/src/analytics/engagement-refresh';
import { UserTokenErasure } from '../apps/query/src/insights/user-token-erasure.service';
import { basicHeader, http, startApp, type TestApp } from './support/test-app';

/**
 * Filters, users, countries and tags on a small known set (docs/architecture.md, "Filters, users, countries and
 * tags"): GET /search-breakdown's every dimension, the filters of one attribute, a phrase's searches, hits, tags, the
 * orders, paging with X-Total-Count and CSV; users and tags in GET /search-stats; hits=all, last_hits, with_filters and
 * tags on GET /search-terms; the 400s naming the parameter. Twice: every hour read from the raw rows, and the hours
 * computed ahead by a pass (the events lie two hours back, in a complete hour) and read so.
 */
describe.each([
  ['read from the raw rows', '0'],
  ['computed ahead', '3600000'],
])('search dimensions over HTTP, %s', (_layout, refreshMs) => {
  let t: TestApp;
  const headers = basicHeader();
  // Half past the hour two hours back: the search a minute earlier (below) lies in the same complete hour whatever the
  // minute now (ts two hours before now put it in the hour before in the first minute of an hour: two hours computed).
  const ts = Math.floor(Date.now() / 3_600_000) * 3_600_000 - 2 * 3_600_000 + 30 * 60_000;

  type Entry = Record<string, unknown> & { searches: number; zero_hit_searches: number; zero_hit_rate: number; users: number };
  const breakdown = (query: string) => http<Entry[]>(`${t.url}/search-breakdown?since=1d&${query}`, { headers });

  beforeAll(async () => {
    t = await startApp({ ENGAGEMENT_REFRESH_MS: refreshMs });
    const search = (phrase: string, hits: number, extra: Record<string, unknown>) => ({
      id: randomUUID(),
      phrase,
      language: 'de',
      hits,
      ts,
      ...extra,
    });
    const events = [
      // "iphone" found nothing only under filters: a filter problem
      search('iphone', 0, { filters: ['brand:Apple', 'price<=100'], userToken: 'u1', country: 'de', tags: ['mobile'] }),
      search('iphone', 0, {
        filters: ['price<=100', 'brand:Apple', 'brand:Apple'],
        userToken: 'u2',
        country: 'DE',
        tags: ['mobile', 'bf'],
      }),
      search('iphone', 12, { userToken: 'u1', country: 'fr' }),
      search('hat', 3, { filters: ['brand:Acme', 'color:=red, "dark"'], sessionId: 's1', tags: ['bf'] }),
      search('hat', 0, { filters: ['brand:Acme'], country: 'DE' }),
      // a bot: left out unless includeBotTraffic=true
      search('hat', 0, { filters: ['brand:Bot'], bot: true }),
      // without dimensions: in no breakdown; an earlier search with more hits (not the latest), and one without filters
      search('hat', 7, { ts: ts - 60_000 }),
      search('sock', 0, {}),
    ];
    const res = await http<{ accepted: number }>(`${t.url}/events`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ events }),
    });
    expect([res.status, res.body.accepted]).toEqual([202, events.length]);
    if (refreshMs !== '0') {
      expect(await t.app.get(DimensionRefresh).refresh()).toBe(1);
      await t.app.get(EngagementRefresh).refresh();
    }
  });
  afterAll(() => t.close());

  it('restricts a list to tags with compare=previous, and exports a list with engagement=true as CSV', async () => {
    type Term = { search_phrase: string; count: number; previous_count: number };
    const tagged = await http<Term[]>(`${t.url}/search-terms?since=1d&hits=all&tags=bf&compare=previous`, { headers });
    expect(tagged.body.map((e) => [e.search_phrase, e.count, e.previous_count])).toEqual([
      ['hat', 1, 0],
      ['iphone', 1, 0],
    ]);
    const csv = await http<string>(`${t.url}/search-terms?since=1d&engagement=true&format=csv`, { headers });
    expect(csv.body.split('\r\n').slice(1, 3)).toEqual(['hat,2,3,2,0,0,0,,0,0,,0,0,0,0,', 'iphone,1,12,1,0,0,0,,0,0,,0,0,0,0,']);
  });

  it('counts each filter attribute once per search, with zero hits, rate and users', async () => {
    const res = await breakdown('by=filter_attribute');
    expect(res.status).toBe(200);
    expect(res.headers['x-total-count']).toBe('3');
    expect(res.body).toEqual([
      { attribute: 'brand', searches: 4, zero_hit_searches: 3, zero_hit_rate: 0.75, users: 3 },
      { attribute: 'price', searches: 2, zero_hit_searches: 2, zero_hit_rate: 1, users: 2 },
      { attribute: 'color', searches: 1, zero_hit_searches: 0, zero_hit_rate: 0, users: 1 },
    ]);
  });

  it("lists one attribute's values, with bots only when asked, and least used first with order=asc", async () => {
    const values = await breakdown('by=filter_value&attribute=brand');
    expect(values.body.map((e) => [e.operator, e.value, e.searches])).toEqual([
      [':', 'Acme', 2],
      [':', 'Apple', 2],
    ]);
    const withBots = await breakdown('by=filter_value&attribute=brand&includeBotTraffic=true&order=asc');
    expect(withBots.body.map((e) => [e.value, e.searches])).toEqual([
      ['Bot', 1],
      ['Acme', 2],
      ['Apple', 2],
    ]);
  });

  it('lists the filter sets of searches that found nothing, a set sorted and without repeats', async () => {
    const res = await breakdown('by=filter_set&hits=false');
    expect(res.body).toEqual([
      {
        filters: [
          { attribute: 'brand', operator: ':', value: 'Apple' },
          { attribute: 'price', operator: '<=', value: '100' },
        ],
        searches: 2,
        zero_hit_searches: 2,
        zero_hit_rate: 1,
        users: 2,
      },
      { filters: [{ attribute: 'brand', operator: ':', value: 'Acme' }], searches: 1, zero_hit_searches: 1, zero_hit_rate: 1, users: 0 },
    ]);
  });

  it('counts countries and tags, restricted to a phrase and to tags', async () => {
    expect((await breakdown('by=country')).body.map((e) => [e.country, e.searches, e.users])).toEqual([
      ['DE', 3, 2],
      ['FR', 1, 1],
    ]);
    expect((await breakdown('by=country&phrase=%20IPhone')).body.map((e) => [e.country, e.searches])).toEqual([
      ['DE', 2],
      ['FR', 1],
    ]);
    expect((await breakdown('by=tag')).body.map((e) => [e.tag, e.searches])).toEqual([
      ['bf', 2],
      ['mobile', 2],
    ]);
    expect((await breakdown(`by=tag&tags=${encodeURIComponent('mobile AND bf')}`)).body.map((e) => [e.tag, e.searches])).toEqual([
      ['bf', 1],
      ['mobile', 1],
    ]);
    expect((await breakdown(`by=country&tags=${encodeURIComponent('mobile OR bf')}`)).body.map((e) => [e.country, e.searches])).toEqual([
      ['DE', 2],
    ]);
  });

  it('pages with X-Total-Count, also past the end', async () => {
    const page = await breakdown('by=filter_attribute&_start=1&_end=2');
    expect([page.headers['x-total-count'], page.body.map((e) => e.attribute)]).toEqual(['3', ['price']]);
    const past = await breakdown('by=filter_attribute&_start=5&_end=7');
    expect([past.headers['x-total-count'], past.body]).toEqual(['3', []]);
  });

  it('answers CSV with the key columns, quoting and defusing values', async () => {
    const res = await http<string>(`${t.url}/search-breakdown?since=1d&by=filter_value&attribute=color&format=csv`, { headers });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.body).toBe(
      'attribute,operator,value,searches,zero_hit_searches,zero_hit_rate,users\r\ncolor,:,"\'=red, ""dark""",1,0,0,1\r\n',
    );
    const sets = await http<string>(`${t.url}/search-breakdown?since=1d&by=filter_set&hits=false`, {
      headers: { ...headers, accept: 'text/csv' },
    });
    expect(sets.body.split('\r\n')[0]).toBe('filters,searches,zero_hit_searches,zero_hit_rate,users');
    expect(sets.body.split('\r\n')[2]).toBe('"[{""attribute"":""brand"",""operator"":"":"",""value"":""Acme""}]",1,1,1,0');
  });

  it('counts users in /search-stats, in total and per bucket, and restricts the stats to tags', async () => {
    type Stats = {
      totals: Record<string, number>;
      previous?: Record<string, number>;
      series: Array<Record<string, number>>;
      languages: unknown[];
    };
    const stats = (query: string) => http<Stats>(`${t.url}/search-stats?since=1d&${query}`, { headers });
    const all = await stats('interval=day');
    // u1 (twice), u2, session s1; the search with neither counts for nobody, the bot is left out.
    expect(all.body.totals).toMatchObject({ searches: 7, zero_hit_searches: 4, distinct_terms: 3, users: 3 });
    expect(all.body.series.reduce((sum, b) => sum + b.users, 0)).toBe(3);
    const bf = await stats(`tags=${encodeURIComponent('bf')}&compare=previous`);
    expect([bf.body.totals, bf.body.previous, bf.headers['x-data-updated-at']]).toEqual([
      { searches: 2, zero_hit_searches: 1, zero_hit_rate: 0.5, distinct_terms: 2, users: 2 },
      { searches: 0, zero_hit_searches: 0, zero_hit_rate: 0, distinct_terms: 0, users: 0 },
      undefined,
    ]);
    expect((await stats(`tags=${encodeURIComponent('mobile AND bf')}`)).body.totals).toMatchObject({ searches: 1, users: 1 });
    expect((await stats(`tags=${encodeURIComponent('mobile OR bf')}`)).body.languages).toEqual([{ language: 'de', searches: 3 }]);
    const refused = await stats('tags=bf&engagement=true');
    expect([refused.status, JSON.stringify(refused.body)]).toEqual([
      400,
      expect.stringContaining('tags cannot be combined with engagement=true'),
    ]);
  });

  type Term = { search_phrase: string; count: number; status: unknown; last_hits?: number; with_filters?: number };
  const terms = (query: string) => http<Term[]>(`${t.url}/search-terms?since=1d&${query}`, { headers });

  it('lists every search of a term with hits=all, its latest hits (latest time, then larger hits), both orders', async () => {
    const all = await terms('hits=all');
    expect([all.headers['x-total-count'], all.body.map((e) => [e.search_phrase, e.count, e.last_hits, e.status])]).toEqual([
      '3',
      [
        ['hat', 3, 3, null],
        ['iphone', 3, 12, null],
        ['sock', 1, 0, null],
      ],
    ]);
    expect((await terms('hits=all&order=asc')).body.map((e) => e.search_phrase)).toEqual(['sock', 'hat', 'iphone']);
    expect((await terms('hits=true')).body.map((e) => [e.search_phrase, e.count, 'last_hits' in e])).toEqual([
      ['hat', 2, false],
      ['iphone', 1, false],
    ]);
    const csv = await http<string>(`${t.url}/search-terms?since=1d&hits=all&format=csv`, { headers });
    expect(csv.body).toBe('search_phrase,count,last_hits\r\nhat,3,3\r\niphone,3,12\r\nsock,1,0\r\n');
  });

  it("tells with filters=true how many of a zero-result term's searches had a filter, and restricts lists to tags", async () => {
    const zero = await terms('hits=false&filters=true');
    expect(zero.body.map((e) => [e.search_phrase, e.count, e.with_filters])).toEqual([
      ['iphone', 2, 2],
      ['hat', 1, 1],
      ['sock', 1, 0],
    ]);
    expect((await terms('hits=false')).body.every((e) => !('with_filters' in e))).toBe(true);
    const csv = await http<string>(`${t.url}/search-terms?since=1d&hits=false&filters=true&format=csv`, { headers });
    expect(csv.body.split('\r\n').slice(0, 2)).toEqual(['search_phrase,count,with_filters,handled,handlers', 'iphone,2,2,false,']);
    // With engagement=true too: last_hits, then with_filters, right after count.
    const both = await http<string>(`${t.url}/search-terms?since=1d&hits=false&filters=true&engagement=true&format=csv`, { headers });
    expect(both.body.split('\r\n')[0]).toMatch(/^search_phrase,count,last_hits,with_filters,handled,handlers,/);
    // last_hits: its latest search found 12 (of those at one time, the larger hits), whatever the list counts.
    expect(both.body.split('\r\n')[1]).toMatch(/^iphone,2,12,2,false,,/);
    expect((await terms(`hits=false&tags=${encodeURIComponent('mobile')}`)).body.map((e) => [e.search_phrase, e.count])).toEqual([
      ['iphone', 2],
    ]);
    expect((await terms(`hits=all&tags=${encodeURIComponent('bf')}`)).body.map((e) => [e.search_phrase, e.count, e.last_hits])).toEqual([
      ['hat', 1, 3],
      ['iphone', 1, 0],
    ]);
  });

  it("gives a term's detail its most used filters, and restricts it to tags", async () => {
    const [iphone] = (await terms('hits=all&_end=100')).body.filter((e) => e.search_phrase === 'iphone') as Array<Term & { id: string }>;
    type Detail = { count: number; zero_hit_count: number; filters: unknown[] };
    const detail = (query: string) => http<Detail>(`${t.url}/search-terms/${iphone.id}?since=1d&${query}`, { headers });
    const all = await detail('');
    expect([all.body.count, all.body.filters]).toEqual([
      3,
      [
        { attribute: 'brand', operator: ':', value: 'Apple', searches: 2, zero_hit_searches: 2 },
        { attribute: 'price', operator: '<=', value: '100', searches: 2, zero_hit_searches: 2 },
      ],
    ]);
    const bf = await detail(`tags=${encodeURIComponent('bf')}`);
    expect([bf.body.count, bf.body.zero_hit_count, bf.body.filters.length, bf.headers['x-data-updated-at']]).toEqual([1, 1, 2, undefined]);
    expect((await detail(`tags=${encodeURIComponent('nope')}`)).status).toBe(404);
  });

  it.each([
    ['hits=true&filters=true', 'filters=true is only allowed with hits=false'],
    ['sort=rising&order=asc', 'order is not allowed with sort=rising'],
    ['hits=some', 'hits must be true, false or all'],
    ['tags=bf&engagement=true', 'tags cannot be combined with engagement=true'],
    ['tags=bf&sort=conversion_rate', 'tags cannot be combined with engagement=true or a sort by the engagement figures'],
  ])('GET /search-terms answers 400 naming the parameter for %p', async (query, message) => {
    const res = await terms(query);
    expect([res.status, JSON.stringify(res.body)]).toEqual([400, expect.stringContaining(message)]);
  });

  it.each([
    ['', 'by is required'],
    ['by=brand', 'by is required'],
    ['by=filter_value', 'attribute is required with by=filter_value'],
    ['by=filter_value&attribute=', 'attribute must be 1 to 64 characters'],
    ['by=filter_value&attribute=%20%20', 'attribute must be 1 to 64 characters'],
    ['by=country&attribute=brand', 'attribute is only allowed with by=filter_value'],
    [`by=tag&tags=${encodeURIComponent('a AND b OR c')}`, 'tags must join tags with AND or with OR'],
    ['by=tag&sort=users', 'sort must be searches or zero_hit_searches'],
    ['by=tag&hits=maybe', 'hits must be true or false'],
  ])('answers 400 naming the parameter for %p', async (query, message) => {
    const res = await breakdown(query);
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain(message);
  });

  // Last: it changes the data set.
  it('erases a user token from search events: its searches still count, for their session or nobody, and no hour keeps it', async () => {
    const res = await http(`${t.url}/1/usertokens/u1`, { method: 'DELETE', headers });
    expect(res.status).toBe(204);
    const ch = t.app.get(ClickHouseService);
    await t.app.get(UserTokenErasure).purge();
    const hash = personalHash('demo', 'u1');
    const left = await ch.query<{ n: string }>(
      `SELECT toString(count()) AS n FROM ${ch.table('search_events')} WHERE user_hash = {hash:String}`,
      {
        hash,
      },
    );
    expect(left).toEqual([{ n: '0' }]);
    const stats = await http<{ totals: { searches: number; users: number } }>(`${t.url}/search-stats?since=1d`, { headers });
    // u1's two searches had no session: they count for nobody now; u2 and session s1 are left.
    expect(stats.body.totals).toMatchObject({ searches: 7, users: 2 });
    expect((await breakdown('by=country')).body.map((e) => [e.country, e.searches, e.users])).toEqual([
      ['DE', 3, 1],
      ['FR', 1, 0],
    ]);
    expect((await breakdown('by=filter_attribute&phrase=iphone')).body.map((e) => [e.attribute, e.searches, e.users])).toEqual([
      ['brand', 2, 1],
      ['price', 2, 1],
    ]);
    // A second run finds nothing left to do and changes nothing.
    await t.app.get(UserTokenErasure).purge();
    expect((await http<{ totals: { users: number } }>(`${t.url}/search-stats?since=1d`, { headers })).body.totals.users).toBe(2);
    // A search sent with the erased token afterwards counts, for nobody.
    const later = await http(`${t.url}/events`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ events: [{ phrase: 'iphone', language: 'de', hits: 1, ts, userToken: 'u1', country: 'de' }] }),
    });
    expect(later.status).toBe(202);
    const after = await http<{ totals: { searches: number; users: number } }>(`${t.url}/search-stats?since=1d`, { headers });
    expect(after.body.totals).toMatchObject({ searches: 8, users: 2 });
    expect((await breakdown('by=country')).body.map((e) => [e.country, e.searches, e.users])).toEqual([
      ['DE', 4, 1],
      ['FR', 1, 0],
    ]);
  });
});
