import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { loadConfig } from '@app/config';
import { ClickHouseService, MIGRATIONS, MigratorService } from '@app/clickhouse';
import { WORKER_DATA_DIR, uniqueDatabase } from './support/test-app';

/**
 * docs/analysts.md invites analysts to query the tables directly, so its table list names every table a fresh
 * database has after the migrations (materialised views are how rows arrive, not where they are read: not listed).
 */
const ROOT = path.resolve(__dirname, '..');

/** The names in backticks in the first column of the table that begins with `| table`. */
function documentedTables(markdown: string): Set<string> {
  const start = markdown.indexOf('| table ');
  if (start === -1) {
    throw new Error('docs/analysts.md has no table list');
  }
  const rows = markdown.slice(start).split('\n\n')[0].split('\n').slice(2);
  return new Set(rows.flatMap((row) => [...row.split('|')[1].matchAll(/`([a-z_0-9]+)`/g)].map((m) => m[1])));
}

describe('the table list of docs/analysts.md', () => {
  it('names every table the migrations create', async () => {
    const config = loadConfig({ DATA_DIR: WORKER_DATA_DIR, CLICKHOUSE_DATABASE: uniqueDatabase('analysts'), LOG_LEVEL: 'silent' });
    const ch = new ClickHouseService(config);
    try {
      await new MigratorService(ch, config).migrate(MIGRATIONS);
      const tables = await ch.query<{ name: string }>(
        `SELECT name FROM system.tables WHERE database = {db:String} AND engine NOT IN ('MaterializedView', 'View') ORDER BY name`,
        { db: config.clickhouse.database },
      );
      expect(tables.length).toBeGreaterThan(30);
      const documented = documentedTables(readFileSync(path.join(ROOT, 'docs/analysts.md'), 'utf8'));
      expect(tables.map((t) => t.name).filter((name) => !documented.has(name))).toEqual([]);
      // and names no table that the migrations do not create (a dropped or renamed one)
      expect([...documented].filter((name) => !tables.some((t) => t.name === name))).toEqual([]);
    } finally {
      await ch.onApplicationShutdown();
    }
  });
});
