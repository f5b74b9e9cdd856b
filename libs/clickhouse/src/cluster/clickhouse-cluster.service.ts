import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { ClickHouseService, type QueryParams } from '../clickhouse.service';
import { storedName, tableNames, type ClusterLayout, type PlacedStatement } from './cluster-ddl';
import { TABLE_CLASSES } from './table-classes';

/** A host of the cluster, with a client of its own (statements that must run there, not through the load balancer). */
export interface ClusterHost {
  shard: number;
  replica: number;
  url: string;
  ch: ClickHouseService;
}

/**
 * Cluster mode's hosts (CLICKHOUSE_CLUSTER; docs/operations.md, "A cluster"): found once from the server the URL
 * reaches, in `system.clusters`, with each host's HTTP port asked of the host itself (clusterAllReplicas). The DDL of
 * a migration runs on the hosts its placement names; mutations run on every shard's local tables; the migration lock
 * and the version clock live on the designated host, the cluster's first. Without a cluster every method acts on the
 * one server.
 */
@Injectable()
export class ClickHouseCluster implements OnApplicationShutdown {
  private found?: Promise<ClusterHost[]>;

  constructor(
    private readonly ch: ClickHouseService,
    private readonly config: AppConfig,
  ) {}

  /** The server the URL reaches (through which every read and insert goes). */
  get server(): ClickHouseService {
    return this.ch;
  }

  get layout(): ClusterLayout | undefined {
    const { cluster, database, replicated } = this.config.clickhouse;
    return cluster === undefined ? undefined : { cluster, database, replicated };
  }

  /** The cluster's hosts in its order (shard, then replica); the one server without a cluster. */
  hosts(): Promise<ClusterHost[]> {
    if (this.found === undefined) {
      this.found = this.layout ? this.discover(this.layout.cluster) : Promise.resolve([{ shard: 1, replica: 1, url: '', ch: this.ch }]);
      // Found again at the next call when the server the URL reaches did not answer.
      this.found.catch(() => (this.found = undefined));
    }
    return this.found;
  }

  /** The host of the migration lock and the version clock: the cluster's first (the one server without a cluster). */
  async designated(): Promise<ClickHouseService> {
    return (await this.hosts())[0].ch;
  }

  /** Runs a placed statement on the hosts its placement names. */
  async run(placed: PlacedStatement): Promise<void> {
    const hosts = await this.hosts();
    const targets =
      placed.on === 'every-host' ? hosts : placed.on === 'one-host' ? hosts.slice(0, 1) : hosts.filter((h) => h.replica === 1);
    for (const host of targets) {
      await host.ch.command(placed.sql);
    }
  }

  /**
   * A mutation (ALTER TABLE ... DELETE/UPDATE, DELETE FROM), or another statement on a table's stored rows: on one
   * server as written; in cluster mode on every shard's local table. A subquery reads the shard's own rows of tenant
   * tables (co-sharded by customer and instance: the rows of the keys it changes) and shared tables whole.
   */
  async mutate(sql: string, params: QueryParams = {}): Promise<void> {
    const layout = this.layout;
    if (layout === undefined) {
      return this.ch.command(sql, params);
    }
    // The table it changes, as stored on each shard; in its subqueries, tenant tables as the shard's own (co-sharded),
    // shared ones whole, through their Distributed tables.
    let target = true;
    const local = sql.replace(tableNames(layout.database), (whole, name: string) => {
      const stored = target || TABLE_CLASSES[name] === 'tenant' ? storedName(name, layout) : name;
      target = false;
      return TABLE_CLASSES[name] === undefined ? whole : `\`${layout.database}\`.\`${stored}\``;
    });
    // Replicated tables take a subquery only as non-deterministic (each replica evaluates it). The service's mutations
    // are periodic and their inputs only grow (erased tokens, recorded versions), so a replica that read less deletes
    // the rest at the next run.
    const nondeterministic = /\bSETTINGS\b[^()]*$/i.test(local)
      ? ', allow_nondeterministic_mutations = 1'
      : ' SETTINGS allow_nondeterministic_mutations = 1';
    const statement = layout.replicated ? `${local}${nondeterministic}` : local;
    // Where the placements of the schema put a change of its table (clusterStatements): once per shard, or once for
    // a shared Replicated table, which every host holds whole.
    const first = tableNames(layout.database).exec(sql)?.[1] ?? '';
    const hosts = await this.hosts();
    const targets = layout.replicated && TABLE_CLASSES[first] === 'shared' ? hosts.slice(0, 1) : hosts.filter((h) => h.replica === 1);
    for (const host of targets) {
      await host.ch.command(statement, params);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    const hosts = this.layout && this.found ? await this.found.catch(() => []) : [];
    await Promise.all(hosts.map((h) => h.ch.onApplicationShutdown()));
  }

  private async discover(cluster: string): Promise<ClusterHost[]> {
    const members = await this.ch.query<{ shard: number; replica: number; host: string; tcp: number }>(
      `SELECT shard_num AS shard, replica_num AS replica, host_name AS host, port AS tcp FROM system.clusters
       WHERE cluster = {cluster:String} ORDER BY shard, replica`,
      { cluster },
    );
    // Each host's own HTTP(S) port, by its shard and native port (hosts of one shard share both on a real cluster).
    // A host that does not answer now is given the URL's port, the usual layout (every host on 8123).
    const base = new URL(this.config.clickhouse.url!);
    const portSetting = base.protocol === 'https:' ? 'https_port' : 'http_port';
    const ports = await this.ch.query<{ shard: number; tcp: number; http: number }>(
      `SELECT shardNum() AS shard, tcpPort() AS tcp, getServerPort({setting:String}) AS http
       FROM clusterAllReplicas({cluster:String}, system.one) SETTINGS skip_unavailable_shards = 1`,
      { cluster, setting: portSetting },
    );
    const defaultPort = base.port || (base.protocol === 'https:' ? '443' : '80');
    return members.map((m) => {
      const http = ports.find((p) => Number(p.shard) === Number(m.shard) && Number(p.tcp) === Number(m.tcp))?.http ?? defaultPort;
      const url = `${base.protocol}//${m.host}:${http}`;
      return { shard: Number(m.shard), replica: Number(m.replica), url, ch: new ClickHouseService(withServer(this.config, url)) };
    });
  }
}

/** The configuration of a single server at `url`: the same database and credentials, outside cluster mode. */
export function withServer(config: AppConfig, url: string): AppConfig {
  return Object.assign(Object.create(AppConfig.prototype) as AppConfig, config, {
    clickhouse: { ...config.clickhouse, url, cluster: undefined },
  });
}
