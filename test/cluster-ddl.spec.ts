import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { MIGRATIONS, TABLE_CLASSES, clusterStatements, type ClusterLayout } from '@app/clickhouse';

/**
 * Cluster mode's DDL (docs/operations.md, "A cluster"): every migration statement as cluster mode carries it out, with
 * where it runs, for Replicated and for plain engines, against committed snapshots (test/fixtures/cluster-ddl-*.sql;
 * `UPDATE_FIXTURES=1 npx jest test/cluster-ddl.spec.ts` writes them after an intended change). And every table the
 * migrations create has a class.
 */
const DATABASE = 'search_analytics';
const ctx = { table: (name: string) => `\`${DATABASE}\`.\`${name}\``, retentionDays: 90 };
/** The migrations' statements, their fresh deduplication tokens made fixed. */
const statements = MIGRATIONS.flatMap((m) =>
  m.statements(ctx).map((sql) => ({
    id: m.id,
    sql: sql.replace(/insert_deduplication_token = '[0-9a-f-]{36}'/g, "insert_deduplication_token = '<token>'"),
  })),
);

describe('cluster mode DDL', () => {
  it('gives every table the migrations create a class, and names no table they do not create', () => {
    const created = [
      ...new Set(statements.flatMap(({ sql }) => [...sql.matchAll(/CREATE TABLE IF NOT EXISTS `\w+`\.`(\w+)`/g)].map((m) => m[1]))),
    ];
    expect(created.filter((name) => TABLE_CLASSES[name] === undefined)).toEqual([]);
    // schema_migrations is created by the migrator itself, before the first migration
    expect(Object.keys(TABLE_CLASSES).filter((name) => !created.includes(name) && name !== 'schema_migrations')).toEqual([]);
  });

  it('refuses a table without a class and a statement it cannot place', () => {
    const layout = { cluster: 'shop', database: DATABASE, replicated: true };
    expect(() =>
      clusterStatements(`CREATE TABLE IF NOT EXISTS ${ctx.table('new_table')} (a UInt8) ENGINE = MergeTree ORDER BY a`, layout),
    ).toThrow(/table new_table has no class for cluster mode/);
    expect(() => clusterStatements(`OPTIMIZE TABLE ${ctx.table('search_events')} FINAL`, layout)).toThrow(/without a cluster placement/);
    expect(() => clusterStatements(`ALTER TABLE ${ctx.table('search_events')} DROP COLUMN hits`, layout)).toThrow(
      /ALTER without a cluster placement/,
    );
    expect(() =>
      clusterStatements(`ALTER TABLE ${ctx.table('search_events')} ADD INDEX i hits TYPE minmax, ADD COLUMN x UInt8`, layout),
    ).toThrow(/ALTER without a cluster placement/);
    expect(() => clusterStatements(`CREATE TABLE IF NOT EXISTS ${ctx.table('api_keys')} (id String) ENGINE = Log`, layout)).toThrow(
      /cannot be made Replicated/,
    );
  });

  it('keeps a shared table a view reads whole, and makes the tables it writes and reads from sharded tables local', () => {
    const view =
      `CREATE MATERIALIZED VIEW IF NOT EXISTS ${ctx.table('x_mv')} TO ${ctx.table('search_ids')} AS ` +
      `SELECT customer FROM ${ctx.table('search_events')} WHERE customer IN (SELECT customer FROM ${ctx.table('customers')})`;
    const [placed] = clusterStatements(view, { cluster: 'shop', database: DATABASE, replicated: false });
    expect(placed.sql).toContain('TO `search_analytics`.`search_ids_local`');
    expect(placed.sql).toContain('FROM `search_analytics`.`search_events_local`');
    expect(placed.sql).toContain('FROM `search_analytics`.`customers`)');
  });

  it.each([
    ['replicated', true],
    ['plain', false],
  ])('carries every migration out on a cluster with %s engines as the snapshot says', (name, replicated) => {
    const layout: ClusterLayout = { cluster: 'shop', database: DATABASE, replicated };
    const text = statements
      .map(({ id, sql }) =>
        clusterStatements(sql, layout)
          .map((placed) => `-- ${id}, on ${placed.on}\n${placed.sql.replace(/\n\s+/g, '\n  ').trim()};\n`)
          .join('\n'),
      )
      .join('\n');
    const file = path.resolve(__dirname, 'fixtures', `cluster-ddl-${name}.sql`);
    if (process.env.UPDATE_FIXTURES === '1') {
      writeFileSync(file, text);
    }
    expect(existsSync(file)).toBe(true);
    expect(text).toBe(readFileSync(file, 'utf8'));
  });

  it('shards tenant tables by customer and instance, and sends a shared table of plain engines to the first shard', () => {
    const db = '`search_analytics`';
    const create =
      `CREATE TABLE IF NOT EXISTS ${ctx.table('search_events')} (customer String, instance String) ENGINE = MergeTree ` +
      'ORDER BY customer SETTINGS non_replicated_deduplication_window = 10000';
    expect(clusterStatements(create, { cluster: 'shop', database: DATABASE, replicated: true })).toEqual([
      {
        on: 'every-host',
        sql:
          `CREATE TABLE IF NOT EXISTS ${db}.\`search_events_local\` (customer String, instance String) ` +
          "ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/{database}/{table}', '{replica}') ORDER BY customer " +
          'SETTINGS replicated_deduplication_window = 10000, replicated_deduplication_window_seconds = 604800',
      },
      {
        on: 'every-host',
        sql:
          `CREATE TABLE IF NOT EXISTS ${db}.\`search_events\` AS ${db}.\`search_events_local\` ` +
          "ENGINE = Distributed('shop', 'search_analytics', 'search_events_local', cityHash64(customer, instance))",
      },
    ]);
    const shared =
      `CREATE TABLE IF NOT EXISTS ${ctx.table('api_keys')} (customer String, id String, version UInt64) ` +
      'ENGINE = ReplacingMergeTree(version) ORDER BY (customer, id)';
    expect(clusterStatements(shared, { cluster: 'shop', database: DATABASE, replicated: true })).toEqual([
      {
        on: 'every-host',
        sql:
          `CREATE TABLE IF NOT EXISTS ${db}.\`api_keys\` (customer String, id String, version UInt64) ` +
          "ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/noshard/{database}/{table}', '{replica}', version) " +
          'ORDER BY (customer, id)',
      },
    ]);
    expect(clusterStatements(shared, { cluster: 'shop', database: DATABASE, replicated: false })[1].sql).toMatch(
      /ENGINE = Distributed\('shop', 'search_analytics', 'api_keys_local', 0\)$/,
    );
  });

  it('retypes a column on the local and the Distributed table, and changes a codec on the local table only', () => {
    const db = '`search_analytics`';
    const layout = { cluster: 'shop', database: DATABASE, replicated: false };
    const place = (alter: string) => clusterStatements(`ALTER TABLE ${ctx.table('search_events')} ${alter}`, layout);
    expect(place('MODIFY COLUMN hits UInt64')).toEqual([
      { on: 'every-host', sql: `ALTER TABLE ${db}.\`search_events_local\` MODIFY COLUMN hits UInt64` },
      { on: 'every-host', sql: `ALTER TABLE ${db}.\`search_events\` MODIFY COLUMN hits UInt64` },
    ]);
    for (const codec of [
      'MODIFY COLUMN user_hash CODEC(ZSTD(1))',
      'MODIFY COLUMN IF EXISTS user_hash CODEC(ZSTD(1))',
      'MODIFY COLUMN user_hash REMOVE CODEC',
    ]) {
      expect(place(codec)).toEqual([{ on: 'every-host', sql: `ALTER TABLE ${db}.\`search_events_local\` ${codec}` }]);
    }
  });

  it('drops a sharded table on every host, the Distributed table before its local one', () => {
    const db = '`search_analytics`';
    const layout = { cluster: 'shop', database: DATABASE, replicated: true };
    expect(clusterStatements(`DROP TABLE IF EXISTS ${ctx.table('search_dimensions_hourly')} SYNC`, layout)).toEqual([
      { on: 'every-host', sql: `DROP TABLE IF EXISTS ${db}.\`search_dimensions_hourly\` SYNC` },
      { on: 'every-host', sql: `DROP TABLE IF EXISTS ${db}.\`search_dimensions_hourly_local\` SYNC` },
    ]);
    expect(clusterStatements(`DROP TABLE IF EXISTS ${ctx.table('api_keys')}`, layout)).toEqual([
      { on: 'every-host', sql: `DROP TABLE IF EXISTS ${db}.\`api_keys\`` },
    ]);
  });
});
