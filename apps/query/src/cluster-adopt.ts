import {
  CLUSTER_SETTINGS,
  ClickHouseCluster,
  ClickHouseService,
  MIGRATIONS,
  TABLE_CLASSES,
  pendingMigrations,
  storedName,
  withServer,
} from '@app/clickhouse';
import { createClient } from '@clickhouse/client';
import type { AppConfig } from '@app/config';

export interface AdoptedTable {
  table: string;
  /** Copied (its rows sent to the cluster), or computed again by the cluster's views from the copied rows. */
  how: 'copied' | 'computed by its views';
  rows: number;
}

/**
 * `npm run cli -- cluster:adopt --from <url>` (docs/operations.md, "A cluster"): moves a single server's tables (its
 * CLICKHOUSE_DATABASE, migrated to this release) into the cluster of CLICKHOUSE_URL and CLICKHOUSE_CLUSTER, migrated
 * here first. The host CLICKHOUSE_URL reaches reads the rows from the old server itself (the url() table function over
 * its HTTP interface) and inserts them through the Distributed tables, so every row lands on its shard.
 * Tables that materialised views fill (rollups, search ids, the Kafka ledger, ...) are not copied: the views compute
 * them from the copied rows, as they did on the old server. Refused when the cluster already holds search events (a
 * second run would count them twice) or the old server lacks a migration. Answers each table with its row count in
 * the cluster; a copied table whose count differs from the old server's fails the command.
 */
export async function adoptIntoCluster(config: AppConfig, cluster: ClickHouseCluster, from: string): Promise<AdoptedTable[]> {
  const layout = cluster.layout;
  if (layout === undefined) {
    throw new Error('cluster:adopt needs CLICKHOUSE_CLUSTER (and CLICKHOUSE_URL): the cluster to move into');
  }
  const source = new ClickHouseService(withServer(config, from));
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
    // A copy takes as long as the table is large: a client of its own without the service's 30 s request limit.
    const copier = createClient({
      url: config.clickhouse.url,
      username: config.clickhouse.user,
      password: config.clickhouse.password,
      request_timeout: COPY_TIMEOUT_MS,
      // Synchronous through the Distributed tables, as every insert of cluster mode; progress headers keep the
      // connection from looking idle while a large table is copied.
      clickhouse_settings: { ...CLUSTER_SETTINGS, send_progress_in_http_headers: 1, http_headers_progress_interval_ms: '10000' },
    });
    try {
      for (const table of copied) {
        const url = new URL(from);
        url.searchParams.set('query', `SELECT * FROM ${source.table(table)} FORMAT Native`);
        // The credentials travel as headers, never in the URL (which ClickHouse repeats in its error messages).
        const { user, password } = config.clickhouse;
        const headers = `headers('X-ClickHouse-User' = ${sqlString(user)}, 'X-ClickHouse-Key' = ${sqlString(password)})`;
        await copier.command({
          query: `INSERT INTO ${target.table(table)}
            SELECT * FROM url(${sqlString(url.toString())}, 'Native', ${headers})
            SETTINGS insert_deduplicate = 0, insert_deduplication_token = ''`,
        });
      }
    } catch (err) {
      // Never the password, whatever the server repeats of the statement.
      const message = (err as Error).message;
      throw new Error(config.clickhouse.password ? message.split(config.clickhouse.password).join('(hidden)') : message);
    } finally {
      await copier.close();
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

/** How long one table's copy may take. */
const COPY_TIMEOUT_MS = 6 * 3_600_000;

const sqlString = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
