/**
 * Before each test file (jest's setupFilesAfterEnv): drops the databases the earlier files of this jest worker left
 * in its data directory. Opening a chdb data directory reads the metadata of every table in it, so with all of them
 * kept a start took 17 s by the end of a run (280 databases) instead of 2 s, and timed out a suite's start in CI. The
 * directory itself stays: chdb binds one directory per process, and an earlier file may have left a connection open.
 */
import { createClient } from '@clickhouse/client';
import { existsSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { WORKER_DATA_DIR } from './worker-dir';

const KEPT = new Set(['default', 'system', 'information_schema', 'INFORMATION_SCHEMA']);

beforeAll(async () => {
  const metadata = path.join(WORKER_DATA_DIR, 'metadata');
  const databases = existsSync(metadata)
    ? readdirSync(metadata)
        .filter((file) => file.endsWith('.sql'))
        .map((file) => file.slice(0, -'.sql'.length))
        .filter((name) => /^\w+$/.test(name) && !KEPT.has(name))
    : [];
  if (databases.length === 0) {
    return;
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- as libs/clickhouse loads it
  const { createChdbConnection } = require('chdb/connection') as {
    createChdbConnection: (options: { path: string }) => NonNullable<Parameters<typeof createClient>[0]>['connection'];
  };
  const client = createClient({ connection: createChdbConnection({ path: WORKER_DATA_DIR }) });
  try {
    for (const name of databases) {
      await client.command({ query: `DROP DATABASE IF EXISTS \`${name}\` SYNC` });
    }
  } finally {
    await client.close();
  }
}, 300_000);
