/**
 * Jest's global set-up and tear-down (jest.config.js): with TEST_STORAGE=server, one real ClickHouse server
 * (bench/clickhouse-server.ts) for the whole run, its URL in TEST_CLICKHOUSE_URL for the workers; with TEST_CLUSTER=1
 * as well, a two-shard cluster of them (bench/clickhouse-cluster.ts), named CLUSTER. Embedded runs start nothing.
 */
import { rmSync } from 'node:fs';
import * as path from 'node:path';
import { startClickHouseCluster } from '../../bench/clickhouse-cluster';
import { startClickHouseServer, type ClickHouseServer } from '../../bench/clickhouse-server';

/** On globalThis: jest may load the set-up and the tear-down as separate modules. */
const shared = globalThis as { clickHouseServers?: ClickHouseServer[] };

export const CLUSTER = 'loopback';

export async function setup(): Promise<void> {
  if (process.env.TEST_STORAGE !== 'server') {
    return;
  }
  if (process.env.TEST_CLUSTER === '1') {
    // Two shards on loopback (plain engines); the apps reach the cluster through its second host, so that every
    // statement that must run on the first (the designated host) is sent there on purpose.
    const cluster = await startClickHouseCluster(CLUSTER);
    shared.clickHouseServers = cluster.servers;
    process.env.TEST_CLICKHOUSE_URL = cluster.servers[1].url;
    process.env.TEST_CLICKHOUSE_URLS = cluster.servers.map((s) => s.url).join(',');
    return;
  }
  const dataDir = path.resolve(__dirname, '../../tmp/jest-server');
  rmSync(dataDir, { recursive: true, force: true });
  const server = await startClickHouseServer({ dataDir });
  shared.clickHouseServers = [server];
  process.env.TEST_CLICKHOUSE_URL = server.url;
}

export async function teardown(): Promise<void> {
  await Promise.all((shared.clickHouseServers ?? []).map((s) => s.stop()));
}
