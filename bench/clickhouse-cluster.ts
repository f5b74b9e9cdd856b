/**
 * A ClickHouse cluster on loopback: one real server per shard (bench/clickhouse-server.ts), each given the same
 * `remote_servers` (one replica per shard, plain engines: replication needs Keeper and an interserver address, which
 * clickhouse-local does not set) and its own `{shard}`/`{replica}` macros. For the cluster-mode tests and benchmark.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { freePort } from './proc';
import { startClickHouseServer, type ClickHouseServer, type ServerOptions } from './clickhouse-server';

export interface ClickHouseCluster {
  name: string;
  /** One server per shard, in the cluster's order (the first is the designated host of shared tables). */
  servers: ClickHouseServer[];
  /** Starts shard `index`'s server again (after its stop()), on its ports and data. */
  restart(index: number): Promise<void>;
  stop(): Promise<void>;
}

/** The server configuration of a loopback cluster: its shards' native ports, and this server's macros. */
export function clusterConfig(name: string, tcpPorts: number[], shard: number): string {
  const shards = tcpPorts.map((port) => `      <shard><replica><host>127.0.0.1</host><port>${port}</port></replica></shard>`).join('\n');
  return `<clickhouse>
  <remote_servers>
    <${name}>
${shards}
    </${name}>
  </remote_servers>
  <macros>
    <cluster>${name}</cluster>
    <shard>${shard + 1}</shard>
    <replica>r${shard + 1}</replica>
  </macros>
</clickhouse>
`;
}

/** Starts `shards` servers that form the cluster `name`. */
export async function startClickHouseCluster(name = 'loopback', shards = 2): Promise<ClickHouseCluster> {
  const dir = mkdtempSync(path.join(tmpdir(), 'clickhouse-cluster-'));
  const tcpPorts = await Promise.all(Array.from({ length: shards }, () => freePort()));
  const servers: ClickHouseServer[] = [];
  const options: ServerOptions[] = [];
  try {
    for (let shard = 0; shard < shards; shard++) {
      const configFile = path.join(dir, `shard-${shard + 1}.xml`);
      writeFileSync(configFile, clusterConfig(name, tcpPorts, shard));
      const dataDir = mkdtempSync(path.join(dir, `data-${shard + 1}-`));
      servers.push(await startClickHouseServer({ dataDir, tcpPort: tcpPorts[shard], configFile }));
      options.push({ dataDir, tcpPort: tcpPorts[shard], httpPort: servers[shard].httpPort, configFile });
    }
  } catch (err) {
    await Promise.all(servers.map((s) => s.stop()));
    throw err;
  }
  return {
    name,
    servers,
    restart: async (index) => {
      servers[index] = await startClickHouseServer(options[index]);
    },
    stop: async () => void (await Promise.all(servers.map((s) => s.stop()))),
  };
}
