import { parse } from 'csv-parse/sync';
import { DateTime } from 'luxon';
import { LEGACY_SECRET, basicHeader, hmacHeaders, http, jwtHeader, startApp, type TestApp } from './support/test-app';
import { PERMISSIONS } from '@app/auth';

/**
 * The analytics (docs/architecture.md) over HTTP, on known events with fixed timestamps around the day Europe/Berlin
 * leaves daylight saving time (a Sunday of 25 hours): the latest last Sunday of October at least three days ago.
 */
const HOUR = 3_600_000;
const D_DATE = (() => {
  let year = DateTime.utc().minus({ days: 3 }).year;
  for (;;) {
    const lastSunday = DateTime.utc(year, 10, 31).minus({ days: DateTime.utc(year, 10, 31).weekday % 7 });
    if (lastSunday < DateTime.utc().minus({ days: 3 })) {
      return lastSunday;
    }
    year--;
  }
})();
/** UTC midnight of the Sunday; Berlin's Sunday is [D - 2 h, D + 23 h). */
const D = D_DATE.toMillis();
const day = (offsetDays: number) => D_DATE.plus({ days: offsetDays }).toISODate()!;
const at = (hours: number) => D + hours * HOUR;
const iso = (ms: number) => new Date(ms).toISOString();

interface Event {
  phrase: string;
  hits: number;
  ts: number;
  language?: string;
  bot?: boolean;
}
const times = (n: number, e: Event): Event[] => Array.from({ length: n }, () => e);

/** E1..E22 of the comments below; hours relative to D (UTC). */
const EVENTS: Event[] = [
  { phrase: 'Summer Dress', hits: 5, ts: at(-2.5) }, // E1: Saturday 23:30 in Berlin
  { phrase: 'summer dress', hits: 0, ts: at(-1.5) }, // E2: Sunday 00:30 in Berlin, Saturday in UTC
  { phrase: 'SUMMER  DRESS', hits: 3, ts: at(1.5) }, // E3: 02:30 CET, the repeated hour
  { phrase: 'summer dress', hits: 2, ts: at(22.5) }, // E4: Sunday 23:30 CET, the newest hit in Berlin's Sunday
  { phrase: 'summer dress', hits: 0, ts: at(23.5) }, // E5: Monday in Berlin, Sunday in UTC
  { phrase: 'summer dress', hits: 0, ts: at(23.75) }, // E6
  { phrase: 'summer dress', hits: 1, ts: at(12), bot: true }, // E7
  ...times(3, { phrase: 'red shoes', hits: 4, ts: at(10) }), // E8-E10
  { phrase: 'red shoes', hits: 1, ts: at(11), language: 'fr' }, // E11
  ...times(2, { phrase: 'red shoes', hits: 4, ts: at(-14) }), // E12-E13: the previous window
  ...times(5, { phrase: 'blue hat', hits: 1, ts: at(-12) }), // E14-E18: the previous window
  { phrase: 'blue hat', hits: 0, ts: at(9) }, // E19
  { phrase: 'new term', hits: 1, ts: at(15) }, // E20
  { phrase: 'socks', hits: 0, ts: at(14) }, // E21
  { phrase: 'Shoes, "Red"', hits: 0, ts: at(16) }, // E22
  // Ten days before: the languages of GET /search-stats (en 3 and a bot, de 2, fr 2, it 1, nl a bot only).
  ...times(3, { phrase: 'boots', hits: 2, ts: at(-230), language: 'en' }),
  { phrase: 'boots', hits: 2, ts: at(-230), language: 'en', bot: true },
  { phrase: 'stiefel', hits: 0, ts: at(-229), language: 'de' },
  { phrase: 'stiefel', hits: 3, ts: at(-229), language: 'de' },
  ...times(2, { phrase: 'bottes', hits: 1, ts: at(-228), language: 'fr' }),
  { phrase: 'stivali', hits: 0, ts: at(-227), language: 'it' },
  { phrase: 'laarzen', hits: 1, ts: at(-226), language: 'nl', bot: true },
];

interface Term {
  id: string;
  search_phrase: string;
  count: number;
  previous_count?: number;
  change?: number | null;
  status: { handled: boolean; handlers: Array<{ type: string; id: string }> } | null;
}
interface Detail {
  id: string;
  search_phrase: string;
  count: number;
  zero_hit_count: number;
  series: Array<{ start: string; count: number; zero_hit_count: number }>;
  variants: Array<{ phrase: string; count: number }>;
  status: { handled: boolean; handlers: Array<{ type: string; id: string }> };
}
interface Totals {
  searches: number;
  zero_hit_searches: number;
  zero_hit_rate: number;
  distinct_terms: number;
}
interface Stats {
  from: string;
  to: string;
  interval: string;
  totals: Totals;
  series: Array<{ start: string; searches: number; zero_hit_searches: number; zero_hit_rate: number }>;
  previous?: Totals;
  languages: Array<{ language: string; searches: number }>;
}

/** Berlin's Sunday, and the UTC Sunday. */
const BERLIN_SUNDAY = `from=${day(0)}&to=${day(1)}&tz=Europe/Berlin`;
const UTC_SUNDAY = `from=${day(0)}&to=${day(1)}`;

describe('analytics over HTTP', () => {
  let t: TestApp;
  const get = <T>(path: string, headers: Record<string, string> = basicHeader()) => http<T>(`${t.url}${path}`, { headers });
  const pairs = (terms: Term[]) => terms.map((x) => [x.search_phrase, x.count]);

  beforeAll(async () => {
    t = await startApp();
    const body = JSON.stringify({ events: EVENTS.map((e) => ({ language: 'de', bot: false, ...e })) });
    const sent = await http<{ accepted: number }>(`${t.url}/events`, { method: 'POST', headers: hmacHeaders(LEGACY_SECRET, body), body });
    expect(sent.body.accepted).toBe(EVENTS.length);
    const saved = await http(`${t.url}/entities/synonym/syn-blue`, {
      method: 'PUT',
      headers: { ...basicHeader(), 'content-type': 'application/json' },
      body: JSON.stringify({ searchPhrases: ['Blue Hat'] }),
    });
    expect(saved.status).toBe(201);
  });
  afterAll(() => t.close());

  describe('GET /search-terms with a window', () => {
    it("counts Berlin's Sunday of 25 hours, not the UTC one", async () => {
      const berlin = await get<Term[]>(`/search-terms?${BERLIN_SUNDAY}`);
      expect(berlin.status).toBe(200);
      expect(pairs(berlin.body)).toEqual([
        ['red shoes', 4],
        ['summer dress', 2],
        ['new term', 1],
      ]);
      expect(berlin.headers['x-total-count']).toBe('3');
      expect(berlin.headers['x-data-updated-at']).toBe(iso(at(22.5)));
      const zeroBerlin = await get<Term[]>(`/search-terms?${BERLIN_SUNDAY}&hits=false`);
      expect(pairs(zeroBerlin.body)).toEqual([
        ['blue hat', 1],
        ['shoes, "red"', 1],
        ['socks', 1],
        ['summer dress', 1],
      ]);
      expect(zeroBerlin.headers['x-data-updated-at']).toBe(iso(at(16)));
      const zeroUtc = await get<Term[]>(`/search-terms?${UTC_SUNDAY}&hits=false`);
      expect(pairs(zeroUtc.body)).toEqual([
        ['summer dress', 2],
        ['blue hat', 1],
        ['shoes, "red"', 1],
        ['socks', 1],
      ]);
    });

    it('applies language and bot filters, and date-times with and without offsets', async () => {
      expect(pairs((await get<Term[]>(`/search-terms?${BERLIN_SUNDAY}&language=de`)).body)).toEqual([
        ['red shoes', 3],
        ['summer dress', 2],
        ['new term', 1],
      ]);
      expect(pairs((await get<Term[]>(`/search-terms?${BERLIN_SUNDAY}&includeBotTraffic=true`)).body)).toEqual([
        ['red shoes', 4],
        ['summer dress', 3],
        ['new term', 1],
      ]);
      // 10:00 to 11:00 UTC, written in Berlin time (CET, +01:00) and with an explicit offset: the three E8-E10.
      const local = await get<Term[]>(`/search-terms?from=${day(0)}T11:00&to=${day(0)}T12:00&tz=Europe/Berlin`);
      const offset = await get<Term[]>(`/search-terms?from=${encodeURIComponent(`${day(0)}T12:00+02:00`)}&to=${day(0)}T11:00Z`);
      expect(pairs(local.body)).toEqual([['red shoes', 3]]);
      expect(pairs(offset.body)).toEqual([['red shoes', 3]]);
    });

    it('adds previous_count and change with compare=previous, and sorts by growth with sort=rising', async () => {
      const compared = await get<Term[]>(`/search-terms?${BERLIN_SUNDAY}&compare=previous`);
      expect(
        compared.body.map(({ search_phrase, count, previous_count, change }) => [search_phrase, count, previous_count, change]),
      ).toEqual([
        ['red shoes', 4, 2, 1],
        ['summer dress', 2, 1, 1],
        ['new term', 1, 0, null],
      ]);
      const rising = await get<Term[]>(`/search-terms?${BERLIN_SUNDAY}&sort=rising`);
      expect(rising.body.map((x) => [x.search_phrase, x.count - x.previous_count!])).toEqual([
        ['red shoes', 2],
        ['new term', 1],
        ['summer dress', 1],
      ]);
      const plain = await get<Term[]>(`/search-terms?${BERLIN_SUNDAY}`);
      expect(plain.body.every((x) => !('previous_count' in x) && !('change' in x))).toBe(true);
    });

    it('filters zero-result terms by handled status, X-Total-Count counting after the filter', async () => {
      const handled = await get<Term[]>(`/search-terms?${BERLIN_SUNDAY}&hits=false&handled=true`);
      expect(handled.body.map((x) => [x.search_phrase, x.status])).toEqual([
        ['blue hat', { handled: true, handlers: [{ type: 'synonym', id: 'syn-blue' }], unhandled_languages: [] }],
      ]);
      expect(handled.headers['x-total-count']).toBe('1');
      const unhandled = await get<Term[]>(`/search-terms?${BERLIN_SUNDAY}&hits=false&handled=false&_end=2`);
      expect(pairs(unhandled.body)).toEqual([
        ['shoes, "red"', 1],
        ['socks', 1],
      ]);
      expect(unhandled.headers['x-total-count']).toBe('3');
    });

    it('answers CSV (format=csv or Accept: text/csv) that parses back to the JSON answer', async () => {
      const query = `/search-terms?${BERLIN_SUNDAY}&hits=false&compare=previous`;
      const json = await get<Term[]>(query);
      for (const csv of [await get<string>(`${query}&format=csv`), await get<string>(query, { ...basicHeader(), accept: 'text/csv' })]) {
        expect(csv.status).toBe(200);
        expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
        expect(csv.headers['content-disposition']).toMatch(/^attachment/);
        expect(csv.headers['x-total-count']).toBe('4');
        expect(csv.headers['x-data-updated-at']).toBe(json.headers['x-data-updated-at']);
        expect(csv.body.startsWith('search_phrase,count,previous_count,change,handled,handlers\r\n')).toBe(true);
        expect(csv.body).toContain('\r\n"shoes, ""red""",1,0,,false,\r\n');
        expect(csv.body.endsWith('\r\n')).toBe(true);
        expect(csv.body.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
        const rows = parse<Record<string, string>>(csv.body, { columns: true });
        expect(rows).toEqual(
          json.body.map((x) => ({
            search_phrase: x.search_phrase,
            count: String(x.count),
            previous_count: String(x.previous_count),
            change: x.change === null ? '' : String(x.change),
            handled: String(x.status!.handled),
            handlers: x.status!.handlers.map((h) => `${h.type}:${h.id}`).join('|'),
          })),
        );
      }
    });

    it('exports every row without _start/_end, only the page with them, and the header alone when empty', async () => {
      const all = await get<string>(`/search-terms?${BERLIN_SUNDAY}&format=csv`);
      expect(all.body).toBe('search_phrase,count\r\nred shoes,4\r\nsummer dress,2\r\nnew term,1\r\n');
      const page = await get<string>(`/search-terms?${BERLIN_SUNDAY}&format=csv&_start=1&_end=2`);
      expect(page.body).toBe('search_phrase,count\r\nsummer dress,2\r\n');
      expect(page.headers['x-total-count']).toBe('3');
      const empty = await get<string>(`/search-terms?from=${day(-20)}&to=${day(-19)}&format=csv`);
      expect(empty.body).toBe('search_phrase,count\r\n');
      expect(empty.headers['x-total-count']).toBe('0');
      expect(empty.headers['x-data-updated-at']).toBeUndefined();
    });

    it('answers as before without the new parameters', async () => {
      const res = await get<Term[]>('/search-terms');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(Array.isArray(res.body)).toBe(true);
    });
  });

  describe('GET /search-terms/{id}', () => {
    let id: string;
    beforeAll(async () => {
      id = (await get<Term[]>(`/search-terms?${BERLIN_SUNDAY}`)).body.find((x) => x.search_phrase === 'summer dress')!.id;
    });

    it('gives counts, a daily series in Berlin time across the DST change, spellings and status', async () => {
      const res = await get<Detail>(`/search-terms/${id}?from=${day(-1)}&to=${day(2)}&tz=Europe/Berlin`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        id,
        search_phrase: 'summer dress',
        count: 6,
        zero_hit_count: 3,
        series: [
          { start: `${day(-1)}T00:00:00+02:00`, count: 1, zero_hit_count: 0 },
          { start: `${day(0)}T00:00:00+02:00`, count: 3, zero_hit_count: 1 },
          { start: `${day(1)}T00:00:00+01:00`, count: 2, zero_hit_count: 2 },
        ],
        variants: [
          { phrase: 'summer dress', count: 4 },
          { phrase: 'SUMMER  DRESS', count: 1 },
          { phrase: 'Summer Dress', count: 1 },
        ],
        status: { handled: false, handlers: [], unhandled_languages: ['de'] },
        // Searches without filters.
        filters: [],
      });
      expect(res.headers['x-data-updated-at']).toBe(iso(at(23.75)));
    });

    it('keeps empty buckets, cuts days in UTC, and counts bots when asked', async () => {
      const utc = await get<Detail>(`/search-terms/${id}?from=${day(-1)}&to=${day(2)}`);
      expect(utc.body.series).toEqual([
        { start: `${day(-1)}T00:00:00Z`, count: 2, zero_hit_count: 1 },
        { start: `${day(0)}T00:00:00Z`, count: 4, zero_hit_count: 2 },
        { start: `${day(1)}T00:00:00Z`, count: 0, zero_hit_count: 0 },
      ]);
      const bots = await get<Detail>(`/search-terms/${id}?${BERLIN_SUNDAY}&interval=day&includeBotTraffic=true`);
      expect(bots.body.series).toEqual([{ start: `${day(0)}T00:00:00+02:00`, count: 4, zero_hit_count: 1 }]);
    });

    it('has 25 hourly buckets on the day daylight saving ends, the repeated hour twice', async () => {
      const res = await get<Detail>(`/search-terms/${id}?${BERLIN_SUNDAY}`);
      expect(res.body.series).toHaveLength(25);
      const byStart = Object.fromEntries(res.body.series.map((b) => [b.start, b.count]));
      expect(byStart[`${day(0)}T00:00:00+02:00`]).toBe(1); // E2
      expect(byStart[`${day(0)}T02:00:00+02:00`]).toBe(0);
      expect(byStart[`${day(0)}T02:00:00+01:00`]).toBe(1); // E3
      expect(byStart[`${day(0)}T23:00:00+01:00`]).toBe(1); // E4
      expect(res.body.series.reduce((sum, b) => sum + b.count, 0)).toBe(res.body.count);
    });

    it('shows the handlers of a handled term', async () => {
      const blue = (await get<Term[]>(`/search-terms?${BERLIN_SUNDAY}&hits=false`)).body.find((x) => x.search_phrase === 'blue hat')!;
      const res = await get<Detail>(`/search-terms/${blue.id}?${BERLIN_SUNDAY}`);
      expect([res.body.count, res.body.zero_hit_count, res.body.status]).toEqual([1, 1, blue.status]);
    });

    it('answers 404 for an id without a search in the window, 400 for an id not of the list form', async () => {
      const none = await get<{ message: string }>(`/search-terms/${id}?from=${day(-20)}&to=${day(-19)}`);
      expect(none.status).toBe(404);
      expect(none.body.message).toContain(id);
      expect((await get(`/search-terms/${'0'.repeat(32)}?${BERLIN_SUNDAY}`)).status).toBe(404);
      for (const bad of ['xyz', id.toUpperCase(), `${id}0`]) {
        const res = await get<{ message: string }>(`/search-terms/${bad}`);
        expect(res.status).toBe(400);
        expect(res.body.message).toMatch(/^id must be 32 lowercase hex/);
      }
    });
  });

  describe('GET /search-stats', () => {
    it("gives totals, 25 hourly buckets for Berlin's Sunday, and the previous window", async () => {
      const res = await get<Stats>(`/search-stats?${BERLIN_SUNDAY}&compare=previous`);
      expect(res.status).toBe(200);
      expect(res.body.from).toBe(`${day(0)}T00:00:00+02:00`);
      expect(res.body.to).toBe(`${day(1)}T00:00:00+01:00`);
      expect(res.body.interval).toBe('hour');
      expect(res.body.totals).toEqual({ searches: 11, zero_hit_searches: 4, zero_hit_rate: 4 / 11, distinct_terms: 6, users: 0 });
      expect(res.body.previous).toEqual({ searches: 8, zero_hit_searches: 0, zero_hit_rate: 0, distinct_terms: 3, users: 0 });
      expect(res.body.series).toHaveLength(25);
      expect(res.body.series[0]).toEqual({
        start: `${day(0)}T00:00:00+02:00`,
        searches: 1,
        zero_hit_searches: 1,
        zero_hit_rate: 1,
        users: 0,
      });
      expect(res.body.series[1]).toEqual({
        start: `${day(0)}T01:00:00+02:00`,
        searches: 0,
        zero_hit_searches: 0,
        zero_hit_rate: 0,
        users: 0,
      });
      expect(res.body.series.reduce((sum, b) => sum + b.searches, 0)).toBe(11);
      expect(res.headers['x-data-updated-at']).toBe(iso(at(22.5)));
    });

    it('gives a daily series in UTC with an empty day, and no previous without compare', async () => {
      const res = await get<Stats>(`/search-stats?from=${day(-1)}&to=${day(2)}`);
      expect(res.body.interval).toBe('day');
      expect(res.body.series).toEqual([
        { start: `${day(-1)}T00:00:00Z`, searches: 9, zero_hit_searches: 1, zero_hit_rate: 1 / 9, users: 0 },
        { start: `${day(0)}T00:00:00Z`, searches: 12, zero_hit_searches: 5, zero_hit_rate: 5 / 12, users: 0 },
        { start: `${day(1)}T00:00:00Z`, searches: 0, zero_hit_searches: 0, zero_hit_rate: 0, users: 0 },
      ]);
      expect(res.body.totals).toEqual({ searches: 21, zero_hit_searches: 6, zero_hit_rate: 6 / 21, distinct_terms: 6, users: 0 });
      expect('previous' in res.body).toBe(false);
    });

    it('answers zeros and no X-Data-Updated-At for a window without searches', async () => {
      const res = await get<Stats>(`/search-stats?from=${day(-20)}&to=${day(-19)}&interval=day`);
      expect(res.body.totals).toEqual({ searches: 0, zero_hit_searches: 0, zero_hit_rate: 0, distinct_terms: 0, users: 0 });
      expect(res.body.series).toEqual([{ start: `${day(-20)}T00:00:00Z`, searches: 0, zero_hit_searches: 0, zero_hit_rate: 0, users: 0 }]);
      expect(res.headers['x-data-updated-at']).toBeUndefined();
      expect(res.body.languages).toEqual([]);
    });

    it('lists the languages of the window, most searched first, bots only when asked, whatever the language filter', async () => {
      const window = `from=${day(-10)}&to=${day(-9)}`;
      const plain = await get<Stats>(`/search-stats?${window}`);
      expect(plain.status).toBe(200);
      // Ties (de and fr, 2 each) by language ascending; every search counted, with results or not.
      expect(plain.body.languages).toEqual([
        { language: 'en', searches: 3 },
        { language: 'de', searches: 2 },
        { language: 'fr', searches: 2 },
        { language: 'it', searches: 1 },
      ]);
      const bots = await get<Stats>(`/search-stats?${window}&includeBotTraffic=true`);
      expect(bots.body.languages).toEqual([
        { language: 'en', searches: 4 },
        { language: 'de', searches: 2 },
        { language: 'fr', searches: 2 },
        { language: 'it', searches: 1 },
        { language: 'nl', searches: 1 },
      ]);
      // The language filter narrows the totals, not the list: a select keeps offering every language of the window.
      const french = await get<Stats>(`/search-stats?${window}&language=FR`);
      expect(french.body.totals.searches).toBe(2);
      expect(french.body.languages).toEqual(plain.body.languages);
      const sunday = await get<Stats>(`/search-stats?${BERLIN_SUNDAY}&compare=previous`);
      expect(sunday.body.languages).toEqual([
        { language: 'de', searches: 10 },
        { language: 'fr', searches: 1 },
      ]);
    });
  });

  describe('GET /instances', () => {
    it('lists the instances of the credential, the default first, without any permission', async () => {
      expect((await get('/instances')).body).toEqual({ instances: ['live', 'stage'], permissions: PERMISSIONS });
      expect((await get('/instances', jwtHeader({ permissions: [] }))).body).toEqual({ instances: ['live', 'stage'], permissions: [] });
      const narrowed = await get('/instances', jwtHeader({ permissions: ['entities.write', 'search.read'], instances: ['stage'] }));
      expect([narrowed.status, narrowed.body]).toEqual([200, { instances: ['stage'], permissions: ['search:read', 'entities:write'] }]);
      expect((await get('/instances', { authorization: 'Basic d3Jvbmc6d3Jvbmc=' })).status).toBe(401);
      expect((await get('/instances', { ...basicHeader(), 'x-service-instance': 'nope' })).status).toBe(401);
    });
  });

  describe('bad input: 400 naming the parameter', () => {
    it.each([
      ['/search-terms?tz=Mars/Olympus', /^tz must be an IANA time zone/],
      ['/search-stats?tz=Asia/Kolkata', /^tz Asia\/Kolkata has an offset of 330 minutes/],
      [`/search-terms?from=${day(1)}&to=${day(0)}`, /^from must be before to/],
      [`/search-terms?from=2001-01-01&to=${day(0)}`, /^from must not be before .*: the retention is 400 days/],
      ['/search-terms?since=401d', /^since must be at most 400d/],
      [`/search-stats?from=${day(0)}&to=9999-12-31`, /^to must be at most 400 days after from/],
      [`/search-terms?from=${day(0)}T10:00${encodeURIComponent('+99:99')}&to=${day(1)}`, /from must be an ISO-8601 date/],
      [`/search-terms?since=7d&from=${day(0)}&to=${day(1)}`, /^since cannot be combined with from and to/],
      [`/search-terms?from=${day(0)}`, /^to is required with from/],
      [`/search-stats?to=${day(0)}`, /^from is required with to/],
      ['/search-terms?from=yesterday&to=today', /from must be an ISO-8601 date/],
      [`/search-terms?from=${day(0)}&to=2026-02-30`, /^to is not a valid date/],
      ['/search-terms?handled=true', /^handled is only allowed with hits=false/],
      ['/search-terms?hits=false&handled=maybe', /handled must be true or false/],
      ['/search-terms?compare=last', /compare must be previous/],
      ['/search-terms?sort=alpha', /sort must be one of count, rising, no_clicks, click_through_rate/],
      ['/search-terms?format=xml', /format must be json or csv/],
      ['/search-terms?since=300d&compare=previous', /^compare=previous needs the previous window within the retention/],
      ['/search-stats?interval=week', /interval must be hour or day/],
      ['/search-stats?since=90d&interval=hour', /^interval hour gives 2161 buckets/],
      [`/search-terms/${'a'.repeat(32)}?since=90d&interval=hour`, /^interval hour gives 2161 buckets/],
      ['/search-stats?hits=false', /property hits should not exist/],
    ])('%s', async (path, message) => {
      const res = await get<{ message: string | string[] }>(path);
      expect(res.status).toBe(400);
      expect([res.body.message].flat().join('; ')).toMatch(message);
    });
  });
});
