import fc from 'fast-check';
import { ClickHouseService } from '@app/clickhouse';
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
      `SELECT phrase, count() AS c FROM ${ch.table('search_events')}
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
          if (HOUR - (Date.now() % HOUR) < 5000) await new Promise((r) => setTimeout(r, HOUR - (Date.now() % HOUR) + 100));
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
