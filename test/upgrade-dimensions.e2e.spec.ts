import { loadConfig } from '@app/config';
import { ClickHouseService, MIGRATIONS, MigratorService } from '@app/clickhouse';
import { DimensionRefresh } from '../apps/query/src/analytics/dimension-refresh';
import { storedSearch } from './support/stored-search';
import { basicHeader, http, startApp, uniqueDatabase, WORKER_DATA_DIR, type TestApp } from './support/test-app';

/**
 * An upgrade from the release before filters, users, countries and tags (migrations 0001-0026), through the HTTP API
 * (docs/upgrading.md): what that release stored answers with empty breakdowns, users counted from its sessions and
 * the latest hits of each phrase, never an error. Twice: every hour read from the raw rows, and after the first
 * dimension pass computed the four hours ahead (the upgrade's work).
 */
describe.each([
  ['read from the raw rows', '0'],
  ['computed ahead by the first pass', '3600000'],
])('an upgrade from the release of migrations 0001-0026, over HTTP, %s', (_layout, refreshMs) => {
  const database = uniqueDatabase('upgrade46');
  let t: TestApp;

  beforeAll(async () => {
    const config = loadConfig({ DATA_DIR: WORKER_DATA_DIR, CLICKHOUSE_DATABASE: database, LOG_LEVEL: 'silent' });
    const ch = new ClickHouseService(config);
    try {
      await new MigratorService(ch, config).migrate(MIGRATIONS.filter((m) => m.id < '0027'));
      // As that release stored them: `hat` found 3, then nothing; `scarf` never found anything. Three sessions.
      await ch.insert('search_events', [
        storedSearch(1, 5, { session_hash: 's1' }),
        storedSearch(2, 4, { session_hash: 's2' }),
        storedSearch(3, 3, { session_hash: 's1', hits: 0 }),
        storedSearch(4, 2, { session_hash: 's3', phrase: 'scarf', raw_phrase: 'scarf', hits: 0 }),
      ]);
    } finally {
      await ch.onApplicationShutdown();
    }
    t = await startApp({ CLICKHOUSE_DATABASE: database, ENGAGEMENT_REFRESH_MS: refreshMs });
    if (refreshMs !== '0') {
      expect(await t.app.get(DimensionRefresh).refresh()).toBe(4);
    }
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  const get = async <T>(path: string) => {
    const res = await http<T>(`${t.url}${path}`, { headers: basicHeader() });
    return { status: res.status, body: res.body, total: res.headers['x-total-count'] };
  };

  it('counts users from the sessions that release stored', async () => {
    const stats = await get<{ totals: { searches: number; users: number } }>('/search-stats?since=1d');
    expect(stats.status).toBe(200);
    expect(stats.body.totals).toMatchObject({ searches: 4, users: 3 });
  });

  it('answers every breakdown empty, with X-Total-Count 0', async () => {
    for (const query of ['by=filter_attribute', 'by=filter_value&attribute=brand', 'by=filter_set', 'by=country', 'by=tag']) {
      expect([query, await get(`/search-breakdown?since=1d&${query}`)]).toEqual([query, { status: 200, body: [], total: '0' }]);
    }
  });

  it('lists every term with its latest hits, zero-result terms without filters, and a detail without filters', async () => {
    const all = await get<Array<{ search_phrase: string; count: number; last_hits: number }>>('/search-terms?since=1d&hits=all');
    expect(all.status).toBe(200);
    expect(all.body.map(({ search_phrase, count, last_hits }) => ({ search_phrase, count, last_hits }))).toEqual([
      { search_phrase: 'hat', count: 3, last_hits: 0 },
      { search_phrase: 'scarf', count: 1, last_hits: 0 },
    ]);
    const zero = await get<Array<{ id: string; search_phrase: string; with_filters: number }>>(
      '/search-terms?since=1d&hits=false&filters=true',
    );
    expect(zero.body.map(({ search_phrase, with_filters }) => ({ search_phrase, with_filters }))).toEqual([
      { search_phrase: 'hat', with_filters: 0 },
      { search_phrase: 'scarf', with_filters: 0 },
    ]);
    const detail = await get<{ filters: unknown[] }>(`/search-terms/${zero.body[0].id}?since=1d`);
    expect(detail.status).toBe(200);
    expect(detail.body.filters).toEqual([]);
  });
});
