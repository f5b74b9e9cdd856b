import { spawn } from 'node:child_process';
import { createClient, type ClickHouseClient } from '@clickhouse/client';
import { distEntry, freshDir } from './processes';

export interface StorageServer {
  /** CLICKHOUSE_URL for the apps. */
  url: string;
  /** A client of its own, for the test's checks. */
  client: ClickHouseClient;
  query<T>(sql: string): Promise<T[]>;
  stop(): Promise<void>;
}

/**
 * A ClickHouse server for processes that share storage: the embedded engine behind ClickHouse's HTTP interface
 * (bench/chdb-http.ts, built), in a process of its own. `insertDelay` ('1000-1500') makes every insert slow.
 */
export async function startStorageServer(insertDelay = '0-0'): Promise<StorageServer> {
  const child = spawn(process.execPath, [distEntry('bench/chdb-http.js')], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: freshDir('storage-server'), INSERT_DELAY_MS: insertDelay },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /PORT (\d+)/.exec(out);
      if (match) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`the storage server exited with ${code}`)));
  });
  const url = `http://127.0.0.1:${port}`;
  const client = createClient({ url });
  return {
    url,
    client,
    query: async <T>(sql: string) => (await client.query({ query: sql, format: 'JSONEachRow' })).json<T>(),
    stop: async () => {
      await client.close();
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
