import { loadConfig } from '@app/config';
import { WORKER_DATA_DIR, uniqueDatabase } from '../../../test/support/test-app';
import { ClickHouseService } from './clickhouse.service';
import { MigratorService } from './migrator.service';
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
      `SELECT name, engine_full FROM system.tables WHERE database = {db:String} AND name IN ('search_events', 'search_terms_hourly', 'rejected_events') ORDER BY name`,
      { db: database },
    );
    expect(rows).toHaveLength(3);
    for (const r of rows) expect(r.engine_full).toMatch(/TTL .*toIntervalDay\(30\)/);
    await ch.onApplicationShutdown();
  });
});
