import fc from 'fast-check';
import { ClickHouseService } from '@app/clickhouse';
import { termId } from '../apps/query/src/analytics/term-id';
import { LEGACY_SECRET, basicHeader, hmacHeaders, http, startApp, type TestApp } from './support/test-app';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const BASES = ['blue hat', 'red shoes', 'grün', 'ärmel', 'x', 'winter coat'];

/** The same phrase written as shoppers do: case, spacing, NFD. */
const phrase = fc
  .tuple(fc.constantFrom(...BASES), fc.constantFrom('lower', 'upper', 'spaced', 'nfd', 'title'))
  .map(([base, style]) =>
    style === 'upper'
      ? base.toUpperCase()
      : style === 'spaced'
        ? `  ${base.replace(' ', '   ')} `
        : style === 'nfd'
          ? base.normalize('NFD')
          : style === 'title'
            ? base[0].toUpperCase() + base.slice(1)
            : base,
  );

const event = fc.record({
  phrase,
  language: fc.constantFrom('de', 'en', 'fr'),
  hits: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 50 })),
  bot: fc.boolean(),
  // Up to 40 days back, with extra weight near the window edges.
  ageMs: fc.oneof(
    fc.integer({ min: 0, max: 40 * DAY }),
    fc.tuple(fc.integer({ min: 1, max: 40 }), fc.integer({ min: -2 * HOUR, max: 2 * HOUR })).map(([days, offset]) => days * DAY + offset),
  ),
});

const filters = fc.record({
  since: fc.integer({ min: 1, max: 35 }),
  language: fc.option(fc.constantFrom('de', 'en', 'fr'), { nil: undefined }),
  includeBotTraffic: fc.boolean(),
  hits: fc.boolean(),
});

describe('GET /search-terms equals a raw-events count (property, fast-check)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  async function raw(
    f: { since: number; language?: string; includeBotTraffic: boolean; hits: boolean },
    now: number,
  ): Promise<Array<[string, number]>> {
    const ch = t.app.get(ClickHouseService);
    const from = Math.floor((now - f.since * DAY) / HOUR) * HOUR;
    const to = Math.floor(now / HOUR) * HOUR + HOUR;
    const rows = await ch.query<{ phrase: string; c: string | number }>(
      `SELECT phrase, sum(sign) AS c FROM ${ch.table('search_events')}
       WHERE customer = 'demo' AND instance = 'live'
         AND ts >= fromUnixTimestamp64Milli({from:Int64}) AND ts < fromUnixTimestamp64Milli({to:Int64})
         AND (hits = 0) = {zero:Bool} AND (NOT bot OR {bots:Bool}) ${f.language ? 'AND language = {language:String}' : ''}
       GROUP BY phrase ORDER BY c DESC, phrase ASC`,
      { from, to, zero: !f.hits, bots: f.includeBotTraffic, language: f.language ?? '' },
    );
    return rows.map((r) => [r.phrase, Number(r.c)]);
  }

  it('for random events and random filter combinations', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(event, { minLength: 1, maxLength: 60 }),
        fc.array(filters, { minLength: 1, maxLength: 4 }),
        async (events, combos) => {
          // Stay clear of an hour boundary between the raw window and the service's.
          if (HOUR - (Date.now() % HOUR) < 5000) {
            await new Promise((r) => setTimeout(r, HOUR - (Date.now() % HOUR) + 100));
          }
          const now = Date.now();
          const body = JSON.stringify({
            events: events.map((e) => ({
              phrase: e.phrase,
              language: e.language,
              hits: e.hits,
              bot: e.bot,
              ts: Math.max(now - e.ageMs, now - 399 * DAY),
            })),
          });
          const sent = await http<{ accepted: number }>(`${t.url}/events`, {
            method: 'POST',
            headers: hmacHeaders(LEGACY_SECRET, body),
            body,
          });
          expect(sent.body.accepted).toBe(events.length);
          for (const f of combos) {
            const language = f.language ? `&language=${f.language}` : '';
            const query = `since=${f.since}d&hits=${f.hits}&includeBotTraffic=${f.includeBotTraffic}${language}&_end=1000`;
            const res = await http<Array<{ search_phrase: string; count: number }>>(`${t.url}/search-terms?${query}`, {
              headers: basicHeader(),
            });
            const expected = await raw(f, now);
            expect(res.body.map((x) => [x.search_phrase, x.count])).toEqual(expected);
            expect(Number(res.headers['x-total-count'])).toBe(expected.length);
          }
        },
      ),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 25) },
    );
  }, 120_000);
});

const TZS = ['UTC', 'Europe/Berlin', 'America/New_York'];

/** A window of whole hours within the last 35 days, as UTC date-times, with a zone for its days. */
const windows = fc.record({
  startHoursAgo: fc.integer({ min: 1, max: 35 * 24 }),
  lengthHours: fc.integer({ min: 1, max: 10 * 24 }),
  tz: fc.constantFrom(...TZS),
  language: fc.option(fc.constantFrom('de', 'en', 'fr'), { nil: undefined }),
  includeBotTraffic: fc.boolean(),
  hits: fc.boolean(),
  interval: fc.constantFrom('hour', 'day'),
  base: fc.constantFrom(...BASES),
});

describe('the analytics answers equal raw-events counts (property, fast-check)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  type Raw = Record<string, string | number>;
  async function raw(
    sql: string,
    w: { from: number; to: number; language?: string; includeBotTraffic: boolean },
    extra = {},
  ): Promise<Raw[]> {
    const ch = t.app.get(ClickHouseService);
    return ch.query<Raw>(
      sql.replace('$events', ch.table('search_events')).replace(
        '$where',
        `customer = 'demo' AND instance = 'live' AND ts >= fromUnixTimestamp64Milli({from:Int64})
           AND ts < fromUnixTimestamp64Milli({to:Int64}) AND (NOT bot OR {bots:Bool})
           ${w.language ? 'AND language = {language:String}' : ''}`,
      ),
      { from: w.from, to: w.to, bots: w.includeBotTraffic, language: w.language ?? '', ...extra },
    );
  }

  it('for random events, windows, zones and filters: list with compare, term detail, search-stats', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(event, { minLength: 1, maxLength: 60 }),
        fc.array(windows, { minLength: 1, maxLength: 3 }),
        async (events, ws) => {
          const now = Date.now();
          const body = JSON.stringify({
            events: events.map((e) => ({ phrase: e.phrase, language: e.language, hits: e.hits, bot: e.bot, ts: now - e.ageMs })),
          });
          const sent = await http<{ accepted: number }>(`${t.url}/events`, {
            method: 'POST',
            headers: hmacHeaders(LEGACY_SECRET, body),
            body,
          });
          expect(sent.body.accepted).toBe(events.length);
          for (const f of ws) {
            const from = Math.floor(now / HOUR) * HOUR - f.startHoursAgo * HOUR;
            const w = { ...f, from, to: from + f.lengthHours * HOUR };
            const previous = { ...w, from: w.from - (w.to - w.from), to: w.from };
            const filters = `includeBotTraffic=${f.includeBotTraffic}${f.language ? `&language=${f.language}` : ''}&tz=${f.tz}`;
            const window = `from=${new Date(w.from).toISOString()}&to=${new Date(w.to).toISOString()}&${filters}`;

            // The list, with compare=previous.
            const list = await http<Array<{ id: string; search_phrase: string; count: number; previous_count: number }>>(
              `${t.url}/search-terms?${window}&hits=${f.hits}&compare=previous&_end=1000`,
              { headers: basicHeader() },
            );
            const counted = `SELECT phrase, sum(sign) AS c FROM $events WHERE $where AND (hits = 0) = {zero:Bool} GROUP BY phrase`;
            const current = await raw(`${counted} ORDER BY c DESC, phrase ASC`, w, { zero: !f.hits });
            const before = Object.fromEntries((await raw(counted, previous, { zero: !f.hits })).map((r) => [r.phrase, Number(r.c)]));
            expect(list.body.map((x) => [x.search_phrase, x.count, x.previous_count])).toEqual(
              current.map((r) => [r.phrase, Number(r.c), before[r.phrase] ?? 0]),
            );

            // A term's detail: counts, series per bucket start, spellings.
            const term = f.base.normalize('NFC');
            const id = termId('demo', 'live', term);
            const bucket = f.interval === 'hour' ? 'toStartOfHour(ts)' : `toStartOfDay(ts, {tz:String})`;
            const perBucket = await raw(
              `SELECT toUnixTimestamp(${bucket}) * 1000 AS start, sum(sign) AS c, sumIf(sign, hits = 0) AS z FROM $events
             WHERE $where AND phrase = {term:String} GROUP BY start ORDER BY start`,
              w,
              { term, tz: f.tz },
            );
            const detail = await http<{
              count: number;
              zero_hit_count: number;
              series: Array<{ start: string; count: number; zero_hit_count: number }>;
              variants: unknown[];
            }>(`${t.url}/search-terms/${id}?${window}&interval=${f.interval}`, { headers: basicHeader() });
            if (perBucket.length === 0) {
              expect(detail.status).toBe(404);
            } else {
              expect(detail.status).toBe(200);
              const nonEmpty = detail.body.series.filter((b) => b.count > 0).map((b) => [Date.parse(b.start), b.count, b.zero_hit_count]);
              expect(nonEmpty).toEqual(perBucket.map((r) => [Number(r.start), Number(r.c), Number(r.z)]));
              expect([detail.body.count, detail.body.zero_hit_count]).toEqual([
                perBucket.reduce((s, r) => s + Number(r.c), 0),
                perBucket.reduce((s, r) => s + Number(r.z), 0),
              ]);
              const spellings = await raw(
                `SELECT raw_phrase AS spelling, sum(sign) AS n FROM $events WHERE $where AND phrase = {term:String}
               GROUP BY raw_phrase ORDER BY n DESC, raw_phrase ASC LIMIT 10`,
                w,
                { term },
              );
              expect(detail.body.variants).toEqual(spellings.map((r) => ({ phrase: r.spelling, count: Number(r.n) })));
            }

            // search-stats: totals of both windows, series.
            const stats = await http<{
              totals: { searches: number; zero_hit_searches: number; distinct_terms: number };
              previous: { searches: number; zero_hit_searches: number; distinct_terms: number };
              series: Array<{ start: string; searches: number }>;
              languages: Array<{ language: string; searches: number }>;
            }>(`${t.url}/search-stats?${window}&interval=${f.interval}&compare=previous`, { headers: basicHeader() });
            const totals = `SELECT sum(sign) AS searches, sumIf(sign, hits = 0) AS zero_hit_searches, uniqExact(phrase) AS distinct_terms
            FROM $events WHERE $where`;
            const numbers = (r: Raw) => ({
              searches: Number(r.searches),
              zero_hit_searches: Number(r.zero_hit_searches),
              distinct_terms: Number(r.distinct_terms),
            });
            expect(stats.body.totals).toMatchObject(numbers((await raw(totals, w))[0]));
            expect(stats.body.previous).toMatchObject(numbers((await raw(totals, previous))[0]));
            const series = await raw(
              `SELECT toUnixTimestamp(${bucket}) * 1000 AS start, sum(sign) AS c FROM $events WHERE $where GROUP BY start ORDER BY start`,
              w,
              {
                tz: f.tz,
              },
            );
            expect(stats.body.series.filter((b) => b.searches > 0).map((b) => [Date.parse(b.start), b.searches])).toEqual(
              series.map((r) => [Number(r.start), Number(r.c)]),
            );
            // Its languages: every language of the window, whatever the language filter.
            const languages = await raw(
              `SELECT language, sum(sign) AS c FROM $events WHERE $where GROUP BY language HAVING c > 0 ORDER BY c DESC, language ASC`,
              { ...w, language: undefined },
            );
            expect(stats.body.languages).toEqual(languages.map((r) => ({ language: r.language, searches: Number(r.c) })));
          }
        },
      ),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 15) },
    );
  }, 180_000);
});
