/**
 * Jest's global set-up and tear-down (jest.config.js): with TEST_STORAGE=server, one real ClickHouse server
 * (bench/clickhouse-server.ts) for the whole run, its URL in TEST_CLICKHOUSE_URL for the workers. Embedded runs start
 * nothing.
 */
import { rmSync } from 'node:fs';
import * as path from 'node:path';
import { startClickHouseServer, type ClickHouseServer } from '../../bench/clickhouse-server';

/** On globalThis: jest may load the set-up and the tear-down as separate modules. */
const shared = globalThis as { clickHouseServer?: ClickHouseServer };

export async function setup(): Promise<void> {
  if (process.env.TEST_STORAGE !== 'server') {
    return;
  }
  const dataDir = path.resolve(__dirname, '../../tmp/jest-server');
  rmSync(dataDir, { recursive: true, force: true });
  shared.clickHouseServer = await startClickHouseServer({ dataDir });
  process.env.TEST_CLICKHOUSE_URL = shared.clickHouseServer.url;
}

export async function teardown(): Promise<void> {
  await shared.clickHouseServer?.stop();
}
