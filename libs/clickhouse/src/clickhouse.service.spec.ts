import { loadConfig } from '@app/config';
import { StorageLimitError } from '@app/errors';
import { WORKER_DATA_DIR, uniqueDatabase } from '../../../test/support/test-app';
import { ClickHouseService } from './clickhouse.service';
import { withSettings } from './sql-literals';
import { insertSettings } from './insert-settings';
import { MigratorService } from './migrator.service';
import { VersionClock } from './version-clock';
import { MIGRATIONS } from './migrations';

describe('ClickHouseService on the embedded engine', () => {
  const config = loadConfig({ DATA_DIR: WORKER_DATA_DIR, CLICKHOUSE_DATABASE: uniqueDatabase('ch') });
  const ch = new ClickHouseService(config);
  const migrator = new MigratorService(ch, config);

  beforeAll(async () => {
    await migrator.migrate(MIGRATIONS);
    await ch.command(
      `CREATE TABLE ${ch.table('dedup')} (id UInt32) ENGINE = MergeTree ORDER BY id SETTINGS non_replicated_deduplication_window = 100`,
    );
  });
  afterAll(() => ch.onApplicationShutdown());

  const count = async () => Number((await ch.query<{ c: string }>(`SELECT count() AS c FROM ${ch.table('dedup')}`))[0].c);

  it('stores the rows of an insert that follows an insert with insert_deduplication_token', async () => {
    await ch.insert('dedup', [{ id: 1 }], 'batch-a');
    await ch.insert('dedup', [{ id: 1 }]);
    await ch.insert('dedup', [{ id: 2 }]);
    expect(await count()).toBe(3);
  });

  it('drops a retried insert with the same token', async () => {
    const before = await count();
    await ch.insert('dedup', [{ id: 7 }, { id: 8 }], 'batch-b');
    await ch.insert('dedup', [{ id: 7 }, { id: 8 }], 'batch-b');
    expect(await count()).toBe(before + 2);
  });

  describe('insert semantics stated by every insert, whatever the server defaults (ClickHouse 24.8 to 26.x)', () => {
    /** What the service hands to the client for each insert, seen at the client seam. */
    const recordInserts = () => {
      const spy = jest.spyOn(ch.client, 'insert');
      let calls: (typeof spy.mock.calls)[number][] = [];
      return {
        settings: () => calls.map(([params]) => params.clickhouse_settings ?? {}),
        restore: () => {
          calls = [...spy.mock.calls];
          spy.mockRestore();
        },
      };
    };

    it('sends async_insert = 0, deduplication on (and into the views) and a token of its own with each insert to a server', async () => {
      // A server-backed service at the client seam: nothing listens there, so the client's calls are answered here.
      const server = new ClickHouseService(loadConfig({ CLICKHOUSE_URL: 'http://127.0.0.1:9', CLICKHOUSE_DATABASE: 'x' }));
      const names = [
        'async_insert',
        'insert_deduplicate',
        'deduplicate_insert',
        'deduplicate_blocks_in_dependent_materialized_views',
        'materialized_views_ignore_errors',
        'parallel_view_processing',
      ];
      jest.spyOn(server.client, 'query').mockResolvedValue({ json: () => Promise.resolve(names.map((name) => ({ name }))) } as never);
      // Inserts go through a client of their own (their own connections, never queued behind queries).
      expect(server.inserts).not.toBe(server.client);
      const insert = jest.spyOn(server.inserts, 'insert').mockResolvedValue({} as never);
      await server.insert('dedup', [{ id: 100 }], 'token-100');
      await server.insert('dedup', [{ id: 101 }]);
      await server.insert('dedup', [{ id: 102 }]);
      const sent = insert.mock.calls.map(([params]) => params.clickhouse_settings ?? {});
      expect(sent).toHaveLength(3);
      for (const settings of sent) {
        expect(settings).toEqual({
          async_insert: 0,
          insert_deduplicate: 1,
          deduplicate_insert: 'enable',
          deduplicate_blocks_in_dependent_materialized_views: 1,
          materialized_views_ignore_errors: 0,
          parallel_view_processing: 1,
          insert_deduplication_token: expect.any(String) as unknown,
        });
      }
      const tokens = sent.map((s) => s.insert_deduplication_token);
      expect(tokens[0]).toBe('token-100');
      expect(new Set(tokens).size).toBe(3);
    });

    it('sets them once for the session of the embedded engine, where each insert sends only its token', async () => {
      const seen = recordInserts();
      try {
        await ch.insert('dedup', [{ id: 103 }], 'token-103');
        await ch.insert('dedup', [{ id: 104 }]);
      } finally {
        seen.restore();
      }
      expect(seen.settings()).toEqual([
        { insert_deduplication_token: 'token-103' },
        { insert_deduplication_token: expect.any(String) as unknown },
      ]);
      const rows = await ch.query<{ name: string; value: string }>(
        `SELECT name, value FROM system.settings WHERE name IN {names:Array(String)} ORDER BY name`,
        {
          names: [
            'async_insert',
            'insert_deduplicate',
            'deduplicate_insert',
            'deduplicate_blocks_in_dependent_materialized_views',
            'materialized_views_ignore_errors',
            'parallel_view_processing',
          ],
        },
      );
      expect(Object.fromEntries(rows.map((r) => [r.name, r.value]))).toEqual({
        async_insert: '0',
        insert_deduplicate: '1',
        deduplicate_insert: 'enable',
        deduplicate_blocks_in_dependent_materialized_views: '1',
        materialized_views_ignore_errors: '0',
        parallel_view_processing: '1',
      });
    });

    it('sends only settings the server knows: a 24.8 server has no deduplicate_insert (added in 26.2)', () => {
      const known = new Set([
        'async_insert',
        'insert_deduplicate',
        'deduplicate_blocks_in_dependent_materialized_views',
        'materialized_views_ignore_errors',
        'insert_deduplication_token',
      ]);
      expect(insertSettings(known, 't')).toEqual({
        async_insert: 0,
        insert_deduplicate: 1,
        deduplicate_blocks_in_dependent_materialized_views: 1,
        materialized_views_ignore_errors: 0,
        insert_deduplication_token: 't',
      });
    });
  });

  it('binds parameters instead of concatenating them', async () => {
    const hostile = `x' OR 1=1 --`;
    const rows = await ch.query<{ v: string }>('SELECT {v:String} AS v', { v: hostile });
    expect(rows).toEqual([{ v: hostile }]);
  });

  it('records migrations and applies nothing the second time', async () => {
    expect(await migrator.migrate(MIGRATIONS)).toEqual([]);
    const recorded = await ch.query<{ id: string }>(`SELECT id FROM ${ch.table('schema_migrations')} ORDER BY id`);
    expect(recorded.map((r) => r.id)).toEqual(MIGRATIONS.map((m) => m.id));
  });

  it('hands out versions from the store clock, increasing across clocks of the processes and within one', async () => {
    const [first] = await new VersionClock(ch).next();
    const now = jest.spyOn(Date, 'now').mockReturnValue(Date.now() - 3_600_000); // this process an hour behind
    try {
      const later = await new VersionClock(ch).next(3);
      expect(later.map(BigInt).every((v, i, all) => v > BigInt(first) && (i === 0 || v > all[i - 1]))).toBe(true);
    } finally {
      now.mockRestore();
    }
  });

  it('answers ping while the engine is open', async () => {
    expect(await ch.ping()).toBe(true);
  });
});

describe('MigratorService retention', () => {
  it('moves the tables TTL to a changed RETENTION_DAYS at start-up', async () => {
    const database = uniqueDatabase('ttl');
    const first = loadConfig({ DATA_DIR: WORKER_DATA_DIR, CLICKHOUSE_DATABASE: database, RETENTION_DAYS: '400' });
    const ch = new ClickHouseService(first);
    await new MigratorService(ch, first).migrate(MIGRATIONS);
    const second = loadConfig({ DATA_DIR: WORKER_DATA_DIR, CLICKHOUSE_DATABASE: database, RETENTION_DAYS: '30' });
    await new MigratorService(ch, second).migrate(MIGRATIONS);
    const rows = await ch.query<{ name: string; engine_full: string }>(
      `SELECT name, engine_full FROM system.tables
       WHERE database = {db:String} AND name IN ('search_events', 'search_terms_hourly', 'rejected_events', 'search_phrases_weekly')
       ORDER BY name`,
      { db: database },
    );
    expect(rows).toHaveLength(4);
    for (const r of rows) {
      expect(r.engine_full).toMatch(/TTL .*toIntervalDay\(30\)/);
    }
    // The weekly rollup keeps its week's seven days (see below).
    expect(rows.find((r) => r.name === 'search_phrases_weekly')?.engine_full).toMatch(/TTL \(?week \+ 7\)? \+ toIntervalDay\(30\)/);
    await ch.onApplicationShutdown();
  });

  it('keeps a weekly rollup row until the last day of its week leaves the retention', async () => {
    // A window that starts at the retention's start, on a Monday, reads that week's row: it must still be there.
    const config = loadConfig({ DATA_DIR: WORKER_DATA_DIR, CLICKHOUSE_DATABASE: uniqueDatabase('ttlweek'), RETENTION_DAYS: '30' });
    const ch = new ClickHouseService(config);
    try {
      await new MigratorService(ch, config).migrate(MIGRATIONS);
      const DAY = 86_400_000;
      const monday = (t: number) => new Date(Math.floor((t + 3 * DAY) / (7 * DAY)) * 7 * DAY - 3 * DAY).toISOString().slice(0, 10);
      const atRetentionStart = monday(Date.now() - 30 * DAY); // its Monday is at most 30 days ago
      const gone = monday(Date.now() - 38 * DAY); // its last day is more than 30 days ago
      const row = (week: string, phrase: string) => ({
        customer: 'c',
        instance: 'i',
        zero_hits: false,
        bot: false,
        week,
        phrase,
        searches: 1,
      });
      await ch.insert('search_phrases_weekly', [row(atRetentionStart, 'kept'), row(gone, 'gone')]);
      await ch.command(`OPTIMIZE TABLE ${ch.table('search_phrases_weekly')} FINAL`);
      const left = await ch.query<{ phrase: string }>(`SELECT phrase FROM ${ch.table('search_phrases_weekly')} ORDER BY phrase`);
      expect(left.map((r) => r.phrase)).toEqual(['kept']);
    } finally {
      await ch.onApplicationShutdown();
    }
  });
});

describe('withSettings', () => {
  it("adds a lane's settings to a query's own trailing SETTINGS, and before a trailing FORMAT", () => {
    const lane = 'SETTINGS max_threads = 1';
    expect(withSettings('SELECT 1', lane)).toBe('SELECT 1 SETTINGS max_threads = 1');
    expect(withSettings('SELECT 1 SETTINGS join_use_nulls = 0', lane)).toBe('SELECT 1 SETTINGS join_use_nulls = 0, max_threads = 1');
    expect(withSettings('SELECT 1 FORMAT TSVRaw', lane)).toBe('SELECT 1 SETTINGS max_threads = 1 FORMAT TSVRaw');
    // A SETTINGS clause of a subquery is not the query's own.
    expect(withSettings('SELECT * FROM (SELECT 1 SETTINGS a = 1)', lane)).toBe(
      'SELECT * FROM (SELECT 1 SETTINGS a = 1) SETTINGS max_threads = 1',
    );
  });
});

describe('ClickHouseService lanes on the embedded engine', () => {
  const ch = new ClickHouseService(loadConfig({ DATA_DIR: WORKER_DATA_DIR, CLICKHOUSE_DATABASE: uniqueDatabase('lane') }));
  afterAll(() => ch.onApplicationShutdown());
  const lane = { maxThreads: 1 };
  /** About 2 s in the engine (sleepEachRow, 10 rows of one block). */
  const slow = () => ch.query(`SELECT sum(sleepEachRow(0.2)) AS c FROM numbers({n:UInt32})`, { n: 10 });

  it("answers a query of another lane, and one outside any lane, while a lane's slow query runs", async () => {
    const finished: string[] = [];
    const slowInLane = ch.inLane(slow, lane).then(() => finished.push('slow lane'));
    await new Promise((r) => setTimeout(r, 200));
    await ch.inLane(() => ch.query(`SELECT {s:String} AS s`, { s: 'quick' }), lane).then(() => finished.push('quick lane'));
    await ch.query(`SELECT {s:String} AS s`, { s: 'outside' }).then(() => finished.push('outside'));
    await slowInLane;
    expect(finished).toEqual(['quick lane', 'outside', 'slow lane']);
  });

  it("gives a lane's queries its max_threads, and their answers are those of the same query outside", async () => {
    const sql = `SELECT getSetting('max_threads') AS threads, {s:String} AS s, {n:Array(UInt8)} AS n`;
    const params = { s: "it's", n: [0, 1] };
    const [inLane] = await ch.inLane(() => ch.query<{ threads: string; s: string }>(sql, params), lane);
    const [outside] = await ch.query<{ threads: string; s: string }>(sql, params);
    expect(Number(inLane.threads)).toBe(1);
    expect({ ...inLane, threads: undefined }).toEqual({ ...outside, threads: undefined });
  });

  it('refuses a read over the memory limit with StorageLimitError (503 with a message, never a 500)', async () => {
    const greedy = `SELECT length(groupArray(number)) AS n FROM numbers(5000000) SETTINGS max_memory_usage = 10000000`;
    await expect(ch.query(greedy)).rejects.toThrow(StorageLimitError);
    await expect(ch.rawStream(`${greedy} FORMAT TSVRaw`)).rejects.toThrow(StorageLimitError);
    const refused = await ch.query(greedy).catch((err: StorageLimitError) => err);
    expect(refused).toMatchObject({ code: 'unavailable' });
    expect((refused as StorageLimitError).publicMessage).toMatch(/more memory than storage allows; ask for a shorter window/);
    // Another failure stays what it was.
    await expect(ch.query('SELECT no_such_column')).rejects.not.toThrow(StorageLimitError);
  });

  it('streams the raw answer of a query with a FORMAT clause in a lane', async () => {
    const stream = await ch.inLane(() => ch.rawStream(`SELECT {s:String} AS s FORMAT TSVRaw`, { s: 'a,b' }), lane);
    const chunks: Buffer[] = [];
    for await (const chunk of stream) {
      chunks.push(chunk as Buffer);
    }
    expect(Buffer.concat(chunks).toString()).toBe('a,b\n');
  });
});
