import { ClickHouseService } from '@app/clickhouse';
import { DataVersions } from '@app/intake';
import { derivedTables, generateScaleData, withZipfTable } from '../bench/scale-data';
import { scaleItems, scaleSearch, searchesSql, type ScaleOptions } from '../bench/scale-events';
import { basicHeader, http, startApp, type TestApp } from './support/test-app';

const SEARCHES = 3000;
/** Items per POST /events: each request holds a search without an id, so none has a retry token (as generated). */
const PER_REQUEST = 1000;
const PAGE = 1000;
const APP_ENV = { RATE_LIMIT_PER_MINUTE: '0', INTAKE_PER_MINUTE: '0', SEARCH_TERMS_CACHE_MS: '0' };

/**
 * The scale data sets' generator (bench/scale-data.ts, docs/benchmarks/methods.md "Scale data sets"): the rows it writes
 * inside the engine are what the service stores of the same events sent through the HTTP API (the JavaScript twin,
 * bench/scale-events.ts), in the raw tables and in every table a materialised view fills, and the analytics answers
 * over both are the same.
 */
describe('scale data sets: SQL generator against the HTTP API (e2e)', () => {
  let generated: TestApp;
  let posted: TestApp;
  const o: ScaleOptions = { seed: 5, end: Math.floor(Date.now() / 1000) * 1000, customer: 'demo', instance: 'live' };
  let interactions = 0;

  beforeAll(async () => {
    generated = await startApp(APP_ENV);
    posted = await startApp(APP_ENV);
    // Three chunks, so that chunking is exercised.
    await generateScaleData(generated.app.get(ClickHouseService), { ...o, searches: SEARCHES, chunk: 1200 });
    generated.app.get(DataVersions).bump(o.customer, o.instance);
    const items = [...scaleItems(SEARCHES, o)];
    interactions = items.length - SEARCHES;
    for (let i = 0; i < items.length; i += PER_REQUEST) {
      const events = items.slice(i, i + PER_REQUEST);
      expect(events.some((e) => e.id === undefined)).toBe(true);
      const body = JSON.stringify({ events });
      const res = await http<{ accepted: number; rejected: unknown[] }>(`${posted.url}/events`, {
        method: 'POST',
        headers: { ...basicHeader(), 'content-type': 'application/json' },
        body,
      });
      expect([res.status, res.body]).toEqual([202, { accepted: events.length, rejected: [] }]);
    }
  }, 180_000);
  afterAll(async () => {
    await generated?.close();
    await posted?.close();
  });

  const both = async <T>(f: (t: TestApp) => Promise<T>): Promise<[T, T]> => [await f(generated), await f(posted)];
  const rows = (t: TestApp, sql: (table: (name: string) => string) => string) => {
    const ch = t.app.get(ClickHouseService);
    return ch.query<Record<string, unknown>>(sql((name) => ch.table(name)));
  };

  it('stores the same search events and interactions (all but the receive time and the ids the service generates)', async () => {
    const [events, posts] = await both((t) =>
      rows(
        t,
        (table) =>
          `SELECT if(id_sent, toString(event_id), '') AS id, * EXCEPT (event_id, received_at) FROM ${table('search_events')} ORDER BY ALL`,
      ),
    );
    expect(events).toHaveLength(SEARCHES);
    expect(events).toEqual(posts);
    const [clicks, postedClicks] = await both((t) =>
      rows(t, (table) => `SELECT * EXCEPT (received_at) FROM ${table('interactions')} ORDER BY ALL`),
    );
    expect(clicks).toHaveLength(interactions);
    expect(clicks).toEqual(postedClicks);
    // The mix the data sets are built for: searches with ids, clicks, conversions with and without a value, bots.
    const [mix] = await rows(
      generated,
      (table) => `SELECT (SELECT countIf(id_sent) FROM ${table('search_events')}) AS tracked,
        (SELECT countIf(bot) FROM ${table('search_events')}) AS bots, (SELECT countIf(hits = 0) FROM ${table('search_events')}) AS zero,
        (SELECT countIf(raw_phrase != phrase) FROM ${table('search_events')}) AS respelled,
        (SELECT countIf(type = 'click') FROM ${table('interactions')}) AS clicks,
        (SELECT countIf(type = 'conversion' AND value > 0) FROM ${table('interactions')}) AS valued,
        (SELECT countIf(type = 'conversion' AND value = 0) FROM ${table('interactions')}) AS unvalued,
        (SELECT countIf(length(filter_attributes) = 3) FROM ${table('search_events')}) AS three_filters,
        (SELECT countIf(has(filter_operators, '<=')) FROM ${table('search_events')}) AS numeric_filters,
        (SELECT countIf(length(tags) = 2) FROM ${table('search_events')}) AS two_tags,
        (SELECT uniqExact(country) = 30 FROM ${table('search_events')}) AS countries,
        (SELECT countIf(user_hash != '' AND session_hash != '') = count() FROM ${table('search_events')}) AS users_and_sessions`,
    );
    for (const [key, value] of Object.entries(mix)) {
      expect([key, Number(value) > 0]).toEqual([key, true]);
    }
  });

  it('fills every table a materialised view over them fills, with the same rows', async () => {
    const [tables, postedTables] = await both((t) => derivedTables(t.app.get(ClickHouseService)));
    expect(tables).toEqual(postedTables);
    expect(tables).toEqual(
      expect.arrayContaining([
        'engagement_changes',
        'search_ids',
        'search_phrases_daily',
        'search_phrases_hourly',
        'search_phrases_weekly',
        'search_term_spellings_hourly',
        'search_terms_daily',
        'search_terms_hourly',
        'search_totals_hourly',
      ]),
    );
    for (const name of tables) {
      // Merged to one row per key: the blocks of the two paths differ, what they sum up to must not.
      const [content, postedContent] = await both(async (t) => {
        await t.app.get(ClickHouseService).command(`OPTIMIZE TABLE ${t.app.get(ClickHouseService).table(name)} FINAL`);
        // engagement_changes records when each row was stored, which differs between the paths.
        const columns = name === 'engagement_changes' ? '* EXCEPT (inserted_at)' : '*';
        return rows(t, (table) => `SELECT ${columns} FROM ${table(name)} ORDER BY ALL`);
      });
      expect([name, content.length]).toEqual([name, postedContent.length]);
      expect(content).toEqual(postedContent);
    }
  });

  it('derives the same searches in SQL and in JavaScript up to row 100M', async () => {
    const ch = generated.app.get(ClickHouseService);
    const from = 99_999_990;
    const sql = await withZipfTable(ch, (zipf) =>
      ch.query<Record<string, unknown>>(
        `SELECT toUInt32(n) AS n, rank, id_sent, language, hits, toFloat64(toUnixTimestamp64Milli(ts)) AS ts,
           concat(leftPad(lower(hex(id_hi)), 16, '0'), leftPad(lower(hex(id_lo)), 16, '0')) AS id,
           arrayMap((a, op, v) -> concat(a, op, v), filter_attributes, filter_operators, filter_values) AS filters,
           concat('user-', toString(user)) AS userToken, country, tags
         FROM (${searchesSql(o, from, 10, zipf)}) ORDER BY n`,
      ),
    );
    const js = Array.from({ length: 10 }, (_, i) => scaleSearch(from + i, o)).map((s) => ({
      n: s.n,
      rank: s.rank,
      id_sent: Number(s.idSent),
      language: s.language,
      hits: s.hits,
      ts: s.ts,
      id: s.id.replaceAll('-', ''),
      filters: s.filters,
      userToken: s.userToken,
      country: s.country,
      tags: s.tags,
    }));
    expect(sql).toEqual(js);
  });

  const get = async <T>(t: TestApp, path: string) => {
    const res = await http<T>(`${t.url}${path}`, { headers: basicHeader() });
    expect([path, res.status]).toEqual([path, 200]);
    return { body: res.body, total: res.headers['x-total-count'], updatedAt: res.headers['x-data-updated-at'] };
  };

  /** Every page of a list. */
  const list = async (t: TestApp, query: string, path = '/search-terms') => {
    const first = await get<unknown[]>(t, `${path}?${query}&_start=0&_end=${PAGE}`);
    const all = [...first.body];
    for (let start = PAGE; start < Number(first.total); start += PAGE) {
      all.push(...(await get<unknown[]>(t, `${path}?${query}&_start=${start}&_end=${start + PAGE}`)).body);
    }
    return { all, total: first.total, updatedAt: first.updatedAt };
  };

  /** Every row of every page of each query's list, alike through both paths. */
  const listsAlike = async (queries: string[], path?: string) => {
    for (const query of queries) {
      const [a, b] = await both((t) => list(t, query, path));
      expect([query, a.total]).toEqual([query, b.total]);
      expect([query, Number(a.total)]).toEqual([query, a.all.length]);
      expect(a.all.length).toBeGreaterThan(0);
      expect(a).toEqual(b);
    }
  };

  it('answers GET /search-terms alike, every row of every list', async () => {
    await listsAlike([
      'since=30d',
      'since=30d&hits=false',
      'since=30d&includeBotTraffic=true',
      'since=30d&engagement=true',
      'since=30d&engagement=true&sort=no_clicks',
      'since=7d&language=de&engagement=true',
      'since=30d&hits=all',
      'since=30d&hits=false&filters=true',
      'since=30d&tags=tag-1%20OR%20tag-2',
    ]);
  });

  it('answers every breakdown alike, every row', async () => {
    await listsAlike(
      [
        'by=filter_attribute',
        'by=filter_value&attribute=brand',
        'by=filter_value&attribute=price',
        'by=filter_set&hits=false',
        'by=country',
        'by=tag',
        'by=country&phrase=phrase%200',
      ].map((query) => `since=30d&${query}`),
      '/search-breakdown',
    );
  });

  it('answers GET /search-stats and a term detail alike, engagement included', async () => {
    for (const query of ['since=30d', 'since=30d&engagement=true', 'since=30d&engagement=true&includeBotTraffic=true']) {
      const [a, b] = await both((t) => get<{ totals: Record<string, unknown> }>(t, `/search-stats?${query}`));
      expect(a).toEqual(b);
    }
    const all = await get<{ totals: Record<string, number> }>(generated, '/search-stats?since=30d&engagement=true&includeBotTraffic=true');
    expect(all.body.totals).toMatchObject({ searches: SEARCHES, unattributed_clicks: 0, unattributed_conversions: 0 });
    expect(all.body.totals.clicks).toBeGreaterThan(0);
    expect(all.body.totals.converted_searches).toBeGreaterThan(0);
    const [top] = (await get<Array<{ id: string }>>(generated, '/search-terms?since=30d&_end=1')).body;
    const [a, b] = await both((t) => get(t, `/search-terms/${top.id}?since=30d&engagement=true`));
    expect(a).toEqual(b);
  });
});
