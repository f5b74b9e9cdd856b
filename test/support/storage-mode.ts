import { createHash } from 'node:crypto';

/**
 * The storage a test run uses (docs/development.md, "Tests"): TEST_STORAGE=embedded (the default) runs every app on the embedded
 * engine; TEST_STORAGE=server runs the server-path suites (the `npm run test:server` list) against one real
 * ClickHouse server that jest's global set-up started (test/support/storage-global.ts), each test file in databases
 * of its own.
 */
export const TEST_STORAGE: 'embedded' | 'server' = process.env.TEST_STORAGE === 'server' ? 'server' : 'embedded';

/** The variables that point an app at this run's storage: CLICKHOUSE_URL on the server path, nothing embedded. */
export function storageEnv(): Record<string, string> {
  if (TEST_STORAGE === 'embedded') {
    return {};
  }
  const url = process.env.TEST_CLICKHOUSE_URL;
  if (!url) {
    throw new Error('TEST_STORAGE=server, but no server was started: run the suites through `npm run test:server`');
  }
  // TEST_CLUSTER=1: cluster mode on the loopback cluster (test/support/storage-global.ts), plain engines.
  return process.env.TEST_CLUSTER === '1'
    ? { CLICKHOUSE_URL: url, CLICKHOUSE_CLUSTER: 'loopback', CLICKHOUSE_REPLICATED: 'false' }
    : { CLICKHOUSE_URL: url };
}

/**
 * The storage variables of an app started as its own process (test/support/processes.ts) or of a reader of its data:
 * embedded, its DATA_DIR and the default database; on the server path, the run's server and a database named after
 * DATA_DIR, so a restart with the same directory finds its data and two tests never share a database.
 */
export function withTestStorage(env: Record<string, string>): Record<string, string> {
  if (TEST_STORAGE === 'embedded' || env.CLICKHOUSE_URL !== undefined || env.DATA_DIR === undefined) {
    return { CLICKHOUSE_DATABASE: 'search_analytics', ...env };
  }
  const database = `p_${createHash('sha256').update(env.DATA_DIR).digest('hex').slice(0, 12)}`;
  return { ...storageEnv(), CLICKHOUSE_DATABASE: database, ...env };
}
