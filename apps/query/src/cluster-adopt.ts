import { ClickHouseCluster, ClickHouseService, MIGRATIONS, TABLE_CLASSES, pendingMigrations, storedName } from '@app/clickhouse';
import type { AppConfig } from '@app/config';

export interface AdoptedTable {
  table: string;
  /** Copied (its rows sent to the cluster), or computed again by the cluster's views from the copied rows. */
  how: 'copied' | 'computed by its views';
  rows: number;
}

/**
 * `npm run cli -- cluster:adopt --from <url>` (docs/operations.md, "From one server to a cluster"): moves a single
 * server's tables (its CLICKHOUSE_DATABASE, migrated to this release) into the cluster of CLICKHOUSE_URL and
 * CLICKHOUSE_CLUSTER, migrated here first. The cluster's hosts read the rows from the old server themselves (the
 * url() table function over its HTTP interface), through the Distributed tables, so every row lands on its shard.
 * Tables that materialised views fill (rollups, search ids, the Kafka ledger, ...) are not copied: the views compute
 * them from the copied rows, as they did on the old server. Refused when the cluster already holds search events (a
 * second run would count them twice) or the old server lacks a migration. Answers each table with its row count on
 * both sides; any difference fails the command.
 */
export async function adoptIntoCluster(config: AppConfig, cluster: ClickHouseCluster, from: string): Promise<AdoptedTable[]> {
  const layout = cluster.layout;
  if (layout === undefined) {
    throw new Error('cluster:adopt needs CLICKHOUSE_CLUSTER (and CLICKHOUSE_URL): the cluster to move into');
  }
  const source = new ClickHouseService(
    Object.assign(Object.create(Object.getPrototypeOf(config) as object) as AppConfig, config, {
      clickhouse: { ...config.clickhouse, url: from, cluster: undefined },
    }),
  );
  const target = cluster.server;
  try {
    const [missing] = await pendingMigrations(source, MIGRATIONS);
    if (missing !== undefined) {
      throw new Error(`the server at ${from} lacks migration ${missing.id}: start this release on it once, then adopt`);
    }
    const [{ n }] = await target.query<{ n: string }>(`SELECT count() AS n FROM ${target.table('search_events')}`);
    if (Number(n) > 0) {
      throw new Error('the cluster already holds search events: adopting again would count them twice');
    }
    const viewTargets = new Set(
      (
        await source.query<{ query: string }>(
          `SELECT create_table_query AS query FROM system.tables WHERE database = {db:String} AND engine = 'MaterializedView'`,
          { db: source.database },
        )
      ).map((v) => /\sTO\s+`?\w+`?\.`?(\w+)`?/.exec(v.query)?.[1]),
    );
    const tables = Object.keys(TABLE_CLASSES).filter((t) => t !== 'schema_migrations');
    // Sources before what their views fill, so the views see every row.
    const copied = tables.filter((t) => !viewTargets.has(t));
    for (const table of copied) {
      const url = exportUrl(from, config, `SELECT * FROM ${source.table(table)} FORMAT Native`);
      await target.command(
        `INSERT INTO ${target.table(table)} SELECT * FROM url(${sqlString(url)}, 'Native')
         SETTINGS insert_deduplicate = 0, insert_deduplication_token = ''`,
      );
    }
    const adopted: AdoptedTable[] = [];
    for (const table of tables) {
      const [before] = await source.query<{ rows: string }>(`SELECT count() AS rows FROM ${source.table(table)}`);
      const [after] = await target.query<{ rows: string }>(`SELECT count() AS rows FROM ${target.table(table)}`);
      adopted.push({ table, how: copied.includes(table) ? 'copied' : 'computed by its views', rows: Number(after.rows) });
      if (copied.includes(table) && Number(before.rows) !== Number(after.rows)) {
        throw new Error(`${table}: ${before.rows} rows on ${from}, ${after.rows} in the cluster (${storedName(table, layout)})`);
      }
    }
    return adopted;
  } finally {
    await source.onApplicationShutdown();
  }
}

const sqlString = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** The old server's HTTP interface answering one query, with the service's credentials (as the cluster reads it). */
function exportUrl(from: string, config: AppConfig, query: string): string {
  const url = new URL(from);
  url.searchParams.set('query', query);
  url.searchParams.set('user', config.clickhouse.user);
  if (config.clickhouse.password) {
    url.searchParams.set('password', config.clickhouse.password);
  }
  return url.toString();
}
