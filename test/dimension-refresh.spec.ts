import { loadConfig } from '@app/config';
import { ClickHouseCluster, ClickHouseService, MIGRATIONS, MigratorService } from '@app/clickhouse';
import { MetricsService } from '@app/metrics';
import { DimensionRefresh } from '../apps/query/src/analytics/dimension-refresh';
import { DimensionRepository } from '../apps/query/src/analytics/dimension.repository';
import type { SearchEventRow } from '@app/contracts';
import { DIMENSION_TABLES, type DimensionTable } from '@app/clickhouse';
import { storedSearch } from './support/stored-search';
import { WORKER_DATA_DIR, uniqueDatabase } from './support/test-app';

const UNTAGGED = 'search_dimensions_untagged_hourly';
const TAGGED = 'search_phrase_tags_hourly';
const event = (n: number, agoHours: number, extra: Partial<SearchEventRow> = {}) =>
  storedSearch(n, agoHours, { hits: n % 2, session_hash: `session-${n % 3}`, ...extra });

/**
 * The dimension pass (DimensionRefresh) over a database whose search events were stored before migration 0027: they
 * get their `search` rows (searches, users from their sessions) and nothing else; events stored after it get a row per
 * filter, filter set, country and tag. Only complete hours are computed; a pass that finds nothing new writes nothing.
 */
describe('the dimension pass over search events stored before and after migration 0027', () => {
  /** A store of its own with a pass that takes no margin: rows received before a pass began are not looked at again. */
  function store(env: Record<string, string>) {
    const config = loadConfig({ DATA_DIR: WORKER_DATA_DIR, CLICKHOUSE_DATABASE: uniqueDatabase('dims'), LOG_LEVEL: 'silent', ...env });
    const ch = new ClickHouseService(config);
    const pass = new DimensionRefresh(ch, config, new ClickHouseCluster(ch, config), new MetricsService());
    pass.changesMarginMs = 0;
    return { config, ch, pass };
  }

  it('counts the searches stored before it once, their users by session, and new searches in every dimension', async () => {
    const { config, ch, pass } = store({ RETENTION_DAYS: '60' });
    try {
      await new MigratorService(ch, config).migrate(MIGRATIONS.filter((m) => m.id < '0027'));
      // Two months back too; and one in the current hour, which no pass computes (answers read it raw).
      await ch.insert('search_events', [
        event(1, 2),
        event(2, 2),
        event(3, 3),
        event(4, 24 * 40),
        event(5, 24 * 40, { session_hash: '' }),
        event(7, 0),
      ]);

      await new MigratorService(ch, config).migrate(MIGRATIONS);
      expect(await pass.refresh()).toBe(3);
      // The rows of each hour's newest recorded version.
      const rows = async (table: string) =>
        ch.query<{ dimension: string; key: string; searches: string; users: string }>(
          `SELECT dimension,
             concat(attribute, operator, value, ${table === UNTAGGED ? "''" : "arrayStringConcat(tags, '+')"}) AS key,
             toString(sum(searches)) AS searches, toString(uniqCombined64Merge(14)(users)) AS users
           FROM ${ch.table(table)}
           WHERE (customer, instance, hour, version) IN (
             SELECT customer, instance, hour, max(version) FROM ${ch.table('search_dimension_versions')} GROUP BY ALL)
           GROUP BY dimension, key ORDER BY dimension, key`,
        );
      for (const table of ['search_dimensions_hourly', 'search_phrase_dimensions_hourly', UNTAGGED]) {
        expect(await rows(table)).toEqual([{ dimension: 'search', key: '', searches: '5', users: '3' }]);
      }
      expect(await rows(TAGGED)).toEqual([]);
      await ch.insert('search_events', [
        event(6, 2, {
          filter_attributes: ['brand', 'brand', 'price', 'brand'],
          filter_operators: [':', ':', '<=', ':'],
          filter_values: ['Apple', 'Sony', '100', 'Apple'],
          user_hash: 'u1',
          country: 'DE',
          tags: ['bf', 'mobile'],
        }),
      ]);
      // The hour of the new event only; then nothing.
      expect(await pass.refresh()).toBe(1);
      expect(await pass.refresh()).toBe(0);
      const expected = [
        { dimension: 'country', key: 'DEbf+mobile', searches: '1', users: '1' },
        { dimension: 'filter_attribute', key: 'brandbf+mobile', searches: '1', users: '1' },
        { dimension: 'filter_attribute', key: 'pricebf+mobile', searches: '1', users: '1' },
        {
          dimension: 'filter_set',
          key: '[["brand",":","Apple"],["brand",":","Sony"],["price","<=","100"]]bf+mobile',
          searches: '1',
          users: '1',
        },
        { dimension: 'filter_value', key: 'brand:Applebf+mobile', searches: '1', users: '1' },
        { dimension: 'filter_value', key: 'brand:Sonybf+mobile', searches: '1', users: '1' },
        { dimension: 'filter_value', key: 'price<=100bf+mobile', searches: '1', users: '1' },
        { dimension: 'search', key: '', searches: '5', users: '3' },
        { dimension: 'search', key: 'bf+mobile', searches: '1', users: '1' },
        { dimension: 'tag', key: 'bfbf+mobile', searches: '1', users: '1' },
        { dimension: 'tag', key: 'mobilebf+mobile', searches: '1', users: '1' },
      ];
      expect(await rows('search_dimensions_hourly')).toEqual(expected);
      expect(await rows('search_phrase_dimensions_hourly')).toEqual(expected);
      // Ordered by tag: the phrase table's tag rows, as they are.
      expect(await rows(TAGGED)).toEqual(expected.filter((r) => r.dimension === 'tag'));
      // Without the tag sets: the rows summed over them (all searches in one row, users merged).
      expect(await rows(UNTAGGED)).toEqual(
        expected
          .map((r) => ({ ...r, key: r.key.replace('bf+mobile', '') }))
          .filter((r) => r.dimension !== 'search')
          .concat({ dimension: 'search', key: '', searches: '6', users: '4' })
          .sort((a, b) => (a.dimension + a.key).localeCompare(b.dimension + b.key)),
      );
      // And the latest search of each key and hour, over the tag sets.
      const latest = (table: string) =>
        ch.query(
          `SELECT dimension, concat(attribute, operator, value) AS key, hour, toString(max(last_search)) AS last
           FROM ${ch.table(table)}
           WHERE (customer, instance, hour, version) IN (
             SELECT customer, instance, hour, max(version) FROM ${ch.table('search_dimension_versions')} GROUP BY ALL)
           GROUP BY dimension, key, hour ORDER BY dimension, key, hour`,
        );
      expect(await latest(UNTAGGED)).toEqual(await latest('search_dimensions_hourly'));
    } finally {
      await pass.onApplicationShutdown();
      await ch.onApplicationShutdown();
    }
  }, 120_000);

  it('reads an hour at its newest version only while its tables count what the hour holds, and computes it again once', async () => {
    const { config, ch, pass } = store({ ENGAGEMENT_REFRESH_MS: '60000' });
    const reader = new DimensionRepository(ch, config);
    const HOUR = 3_600_000;
    const hourOf = (agoHours: number) => Math.floor((Date.now() - agoHours * HOUR) / HOUR) * HOUR;
    const tenant = { customer: 'demo', instance: 'live', includeBots: true };
    // Ten minutes into the hour `agoHours` back, as storedSearch's age (whatever the minute now).
    const into = (agoHours: number) => (Date.now() - hourOf(agoHours) - 600_000) / HOUR;
    // The hours 3 and 2 ago, and the current one; the plan as [hour, 'ahead' | 'raw'] per hour.
    const range = { from: hourOf(3), to: hourOf(0) + HOUR };
    const plan = async (table: DimensionTable['table'] = 'search_dimensions_hourly') => {
      const p = await reader.plan(table, tenant, range);
      const each = (ranges: Array<{ from: number; to: number }>, kind: string) =>
        ranges.flatMap((r) => Array.from({ length: (r.to - r.from) / HOUR }, (_, i): [number, string] => [r.from + i * HOUR, kind]));
      return [...each(p.ahead, 'ahead'), ...each(p.raw, 'raw')]
        .sort((a, b) => a[0] - b[0])
        .map(([h, kind]) => [(h - range.from) / HOUR, kind]);
    };
    const versions = async (agoHours: number) =>
      ch.query<{ searches: string; phrase_searches: string; untagged_searches: string; tagged_searches: string; totals: string }>(
        `SELECT toString(searches) AS searches, toString(phrase_searches) AS phrase_searches,
           toString(untagged_searches) AS untagged_searches, toString(tagged_searches) AS tagged_searches, toString(totals) AS totals
         FROM ${ch.table('search_dimension_versions')} WHERE hour = toDateTime({h:UInt32}, 'UTC') ORDER BY version`,
        { h: hourOf(agoHours) / 1000 },
      );
    try {
      await new MigratorService(ch, config).migrate(MIGRATIONS);
      await ch.insert('search_events', [event(1, into(3)), event(2, into(2)), event(3, into(2)), event(4, 0)]);
      expect(await plan()).toEqual([
        [0, 'raw'],
        [1, 'raw'],
        [2, 'raw'],
        [3, 'raw'],
      ]);
      expect(await pass.refresh()).toBe(2);
      // Hour 2 had no search: nothing to compute, read raw (it finds nothing either way).
      expect(await plan()).toEqual([
        [0, 'ahead'],
        [1, 'ahead'],
        [2, 'raw'],
        [3, 'raw'],
      ]);
      expect(await versions(2)).toEqual([
        { searches: '2', phrase_searches: '2', untagged_searches: '2', tagged_searches: '2', totals: '2' },
      ]);

      // A late search of a computed hour: read raw until a pass computes it again, then at the new version.
      await ch.insert('search_events', [event(5, into(2))]);
      expect((await plan())[1]).toEqual([1, 'raw']);
      expect(await pass.refresh()).toBe(1);
      expect((await plan())[1]).toEqual([1, 'ahead']);
      expect(await versions(2)).toEqual([
        { searches: '2', phrase_searches: '2', untagged_searches: '2', tagged_searches: '2', totals: '2' },
        { searches: '3', phrase_searches: '3', untagged_searches: '3', tagged_searches: '3', totals: '3' },
      ]);

      // A version recorded before migration 0031 (no untagged rows): its untagged rows are read raw (the other tables'
      // still ahead), and the next pass computes the hour again.
      await ch.command(
        `ALTER TABLE ${ch.table('search_dimension_versions')} UPDATE untagged_searches = 0
         WHERE hour = toDateTime({h:UInt32}, 'UTC') SETTINGS mutations_sync = 2`,
        { h: hourOf(2) / 1000 },
      );
      expect((await plan(UNTAGGED))[1]).toEqual([1, 'raw']);
      expect((await plan())[1]).toEqual([1, 'ahead']);
      expect((await plan('search_phrase_dimensions_hourly'))[1]).toEqual([1, 'ahead']);
      expect(await pass.refresh()).toBe(1);
      expect((await plan(UNTAGGED))[1]).toEqual([1, 'ahead']);

      // A version recorded before migration 0032 (0), or whose tag rows were not all copied (-1): its tag rows are read
      // raw (the others' still ahead), and the next pass computes the hour again.
      for (const tagged of [0, -1]) {
        await ch.command(
          `ALTER TABLE ${ch.table('search_dimension_versions')} UPDATE tagged_searches = {tagged:Int64}
           WHERE hour = toDateTime({h:UInt32}, 'UTC') SETTINGS mutations_sync = 2`,
          { h: hourOf(2) / 1000, tagged },
        );
        expect((await plan(TAGGED))[1]).toEqual([1, 'raw']);
        expect((await plan('search_phrase_dimensions_hourly'))[1]).toEqual([1, 'ahead']);
        expect(await pass.refresh()).toBe(1);
        expect((await plan(TAGGED))[1]).toEqual([1, 'ahead']);
      }

      // A total no repair makes right (a half-done insert on a server): the hour is computed once more, then read raw
      // and left alone.
      await ch.insert('search_totals_hourly', [
        {
          customer: 'demo',
          instance: 'live',
          hour: new Date(hourOf(3)).toISOString().slice(0, 19).replace('T', ' '),
          zero_hits: false,
          bot: false,
          language: 'de',
          searches: 5,
        },
      ]);
      expect((await plan())[0]).toEqual([0, 'raw']);
      expect(await pass.refresh()).toBe(1);
      expect(await pass.refresh()).toBe(0);
      expect((await plan())[0]).toEqual([0, 'raw']);
    } finally {
      await pass.onApplicationShutdown();
      await ch.onApplicationShutdown();
    }
  }, 120_000);

  it('writes each run of hours under a version of its own, so a run reads back only its own rows', async () => {
    const { config, ch, pass } = store({});
    try {
      await new MigratorService(ch, config).migrate(MIGRATIONS);
      const tagged = { tags: ['bf'] };
      await ch.insert('search_events', [event(1, 4, tagged), event(2, 3, tagged), event(3, 3, tagged), event(4, 2, tagged)]);
      // At most one search per statement: the three hours are three runs.
      pass.runSearches = 1;
      expect(await pass.refresh()).toBe(3);
      const hoursPerVersion = (table: string) =>
        ch.query<{ hours: string }>(`SELECT toString(uniqExact(hour)) AS hours FROM ${ch.table(table)} GROUP BY version ORDER BY version`);
      for (const table of ['search_dimension_versions', ...DIMENSION_TABLES.map((d) => d.table)]) {
        expect(await hoursPerVersion(table)).toEqual([{ hours: '1' }, { hours: '1' }, { hours: '1' }]);
      }
    } finally {
      await pass.onApplicationShutdown();
      await ch.onApplicationShutdown();
    }
  }, 120_000);
});
