import type { ClickHouseService } from './clickhouse.service';
import type { Migration } from './migrations';

/** The migrations of `migrations` not yet recorded in schema_migrations (all of them before the first start). */
export async function pendingMigrations(ch: ClickHouseService, migrations: readonly Migration[]): Promise<Migration[]> {
  const [{ n }] = await ch.query<{ n: string | number }>(
    `SELECT count() AS n FROM system.tables WHERE database = {db:String} AND name = 'schema_migrations'`,
    { db: ch.database },
  );
  if (Number(n) === 0) {
    return [...migrations];
  }
  const applied = new Set((await ch.query<{ id: string }>(`SELECT DISTINCT id FROM ${ch.table('schema_migrations')}`)).map((r) => r.id));
  return migrations.filter((m) => !applied.has(m.id));
}
