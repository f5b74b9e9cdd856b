import { ClickHouseService, MIGRATIONS, MigratorService } from '@app/clickhouse';
import { loadConfig } from '@app/config';
import { MetricsService } from '@app/metrics';
import { WORKER_DATA_DIR, uniqueDatabase } from '../../../test/support/test-app';
import { StorageInsertMetrics } from './storage-insert-metrics';

describe('storage_inserts_total on the embedded engine', () => {
  const config = loadConfig({ DATA_DIR: WORKER_DATA_DIR, CLICKHOUSE_DATABASE: uniqueDatabase('inserts') });
  const ch = new ClickHouseService(config);
  const metrics = new MetricsService();
  new StorageInsertMetrics(ch, metrics);

  const inserts = async (table: string) => (await metrics.storageInserts.get()).values.find((v) => v.labels.table === table)?.value ?? 0;

  beforeAll(async () => {
    await new MigratorService(ch, config).migrate(MIGRATIONS);
    await ch.command(`CREATE TABLE ${ch.table('counted')} (id UInt32) ENGINE = MergeTree ORDER BY id`);
    await ch.command(`CREATE TABLE ${ch.table('counted_copy')} (id UInt32) ENGINE = MergeTree ORDER BY id`);
    await ch.command(
      `CREATE MATERIALIZED VIEW ${ch.table('counted_mv')} TO ${ch.table('counted_copy')} AS SELECT id FROM ${ch.table('counted')}`,
    );
  });
  afterAll(() => ch.onApplicationShutdown());

  it("counts the migrations' inserts", async () => {
    expect(await inserts('schema_migrations')).toBe(MIGRATIONS.length);
  });

  it("counts each insert under its table, one per statement whatever its rows, and not the view's target", async () => {
    await ch.insert('counted', [{ id: 1 }]);
    await ch.insert('counted', [{ id: 2 }, { id: 3 }], 'a-token');
    expect(await inserts('counted')).toBe(2);
    expect(await inserts('counted_copy')).toBe(0);
    const [{ c }] = await ch.query<{ c: string }>(`SELECT count() AS c FROM ${ch.table('counted_copy')}`);
    expect(Number(c)).toBe(3);
  });

  it('counts an INSERT ... SELECT sent as a command, and no other statement', async () => {
    const before = await inserts('counted');
    await ch.command(`INSERT INTO ${ch.table('counted')} (id) SELECT number FROM numbers(5)`);
    await ch.command(`OPTIMIZE TABLE ${ch.table('counted')} FINAL`);
    expect(await inserts('counted')).toBe(before + 1);
  });

  it('counts no insert without rows (nothing is sent)', async () => {
    const before = await inserts('counted');
    await ch.insert('counted', []);
    expect(await inserts('counted')).toBe(before);
  });
});
