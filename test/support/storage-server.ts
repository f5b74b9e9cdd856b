import { spawn, type ChildProcess } from 'node:child_process';
import { createClient, type ClickHouseClient } from '@clickhouse/client';
import { cleanEnv, distEntry, freshDir } from './processes';

export interface StorageServer {
  /** CLICKHOUSE_URL for the apps. */
  url: string;
  /** A client of its own, for the test's checks. */
  client: ClickHouseClient;
  query<T>(sql: string): Promise<T[]>;
  stop(): Promise<void>;
}

/**
 * The stand-in ClickHouse server (bench/chdb-http.ts, built): the embedded engine behind ClickHouse's HTTP interface,
 * in a process of its own, listening on `port` (or any free one, answered) with its data in `dataDir`, so it can be
 * started again where it was. `insertDelay` ('1000-1500') makes every insert into `delayTables` (all tables when
 * not given) slow.
 */
export async function spawnStorageServer(
  options: { port?: number; dataDir?: string; insertDelay?: string; delayTables?: string[] } = {},
): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, [distEntry('bench/chdb-http.js')], {
    env: cleanEnv({
      DATA_DIR: options.dataDir ?? freshDir('storage-server'),
      INSERT_DELAY_MS: options.insertDelay ?? '0-0',
      ...(options.delayTables === undefined ? {} : { INSERT_DELAY_TABLES: options.delayTables.join(',') }),
      ...(options.port === undefined ? {} : { PORT: String(options.port) }),
    }),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /PORT (\d+)/.exec(out);
      if (match) {
        resolve(Number(match[1]));
      }
    });
    child.once('exit', (code) => reject(new Error(`the stand-in ClickHouse server exited with ${code}`)));
  });
  return { child, port };
}

/** A stand-in server shared by processes, with a client for the test's checks. */
export async function startStorageServer(insertDelay = '0-0', delayTables?: string[]): Promise<StorageServer> {
  const { child, port } = await spawnStorageServer({ insertDelay, delayTables });
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
