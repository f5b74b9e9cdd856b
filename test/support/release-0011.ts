import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { ClickHouseService } from '@app/clickhouse';

/**
 * The schema a release before retry tokens left (migrations 0001-0011), frozen in test/fixtures/release-0011.sql:
 * tables first, then their views, then the release's record of its migrations. `{database}` stands for the
 * database. The upgrade tests load it and write rows through it as that release did; the fixture is never built
 * from an old release in CI (test/upgrade.e2e.spec.ts checks it against migrations 0001-0011 as they are).
 */
export const RELEASE_0011 = path.join(__dirname, '..', 'fixtures', 'release-0011.sql');
const SEPARATOR = ';\n\n';
const PLACEHOLDER = '{database}';
/** When the fixture's release applied its migrations. */
const APPLIED_AT = '2026-01-05 09:00:00.000';

/** The schema of `ch`'s database as the fixture holds it. */
export async function dumpSchema(ch: ClickHouseService): Promise<string> {
  const tables = await ch.query<{ sql: string }>(
    `SELECT create_table_query AS sql FROM system.tables WHERE database = {db:String} ORDER BY engine LIKE '%View', name`,
    { db: ch.database },
  );
  const ids = await ch.query<{ id: string }>(`SELECT id FROM ${ch.table('schema_migrations')} ORDER BY id`);
  const statements = [
    ...tables.map((t) => t.sql.replaceAll(`${ch.database}.`, `${PLACEHOLDER}.`)),
    `INSERT INTO ${PLACEHOLDER}.schema_migrations (id, applied_at) VALUES ${ids.map((r) => `('${r.id}', '${APPLIED_AT}')`).join(', ')}`,
  ];
  return `${statements.join(SEPARATOR)}\n`;
}

export function writeFixture(sql: string): void {
  writeFileSync(RELEASE_0011, sql);
}

export function readFixture(): string {
  return readFileSync(RELEASE_0011, 'utf8');
}

/** Creates `ch`'s database as the release before retry tokens left it (no rows but its migration records). */
export async function loadRelease0011(ch: ClickHouseService): Promise<void> {
  await ch.command(`CREATE DATABASE IF NOT EXISTS \`${ch.database}\``);
  for (const statement of readFixture().trim().split(SEPARATOR)) {
    await ch.command(statement.replaceAll(`${PLACEHOLDER}.`, `${ch.database}.`));
  }
}
