/**
 * A real ClickHouse server on loopback: the engine of the `chdb` npm package (libchdb.so, which holds
 * clickhouse-local) serving ClickHouse's own HTTP and native interfaces, started by the launcher
 * scripts/build-chdb-server.sh builds (tools/chdb-server). Used by the server-path tests (TEST_STORAGE=server,
 * docs/development.md, "Tests"), the loopback cluster and the benchmarks. Not the Node stand-in (bench/chdb-http.ts): its HTTP
 * handling, settings, errors and formats are ClickHouse's.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { freePort } from './proc';

const ROOT = path.resolve(__dirname, '..', __dirname.includes(`${path.sep}dist${path.sep}`) ? '..' : '.');

/** Where scripts/build-chdb-server.sh puts the launcher. */
export const LAUNCHER = path.join(ROOT, '.chdb-server', 'chdb-server');

/** The engine chdb loads: its platform package's libchdb.so. */
export function libchdbPath(): string {
  // Linux packages are named for their C library (-gnu), macOS ones are not.
  const name = `@chdb/lib-${process.platform}-${process.arch}${process.platform === 'linux' ? '-gnu' : ''}`;
  const dir = path.dirname(require.resolve(`${name}/package.json`));
  return path.join(dir, process.platform === 'darwin' ? 'libchdb.dylib' : 'libchdb.so');
}

export function launcherBuilt(): boolean {
  return existsSync(LAUNCHER);
}

export interface ClickHouseServer {
  /** http://127.0.0.1:<http port>, for CLICKHOUSE_URL. */
  url: string;
  httpPort: number;
  tcpPort: number;
  dataDir: string;
  child: ChildProcess;
  /** What the server wrote to stderr so far. */
  stderr(): string;
  /** SIGTERM, then waits for the process to end. */
  stop(): Promise<void>;
}

export interface ServerOptions {
  dataDir?: string;
  httpPort?: number;
  tcpPort?: number;
  /** A server config (remote_servers, macros) for the loopback cluster. */
  configFile?: string;
  /** How long to wait for /ping (a start reads the metadata of every table in dataDir). */
  timeoutMs?: number;
}

/** Starts a server and waits until it answers /ping. */
export async function startClickHouseServer(options: ServerOptions = {}): Promise<ClickHouseServer> {
  if (!launcherBuilt()) {
    throw new Error(`${LAUNCHER} is missing: run scripts/build-chdb-server.sh`);
  }
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'clickhouse-server-'));
  const httpPort = options.httpPort ?? (await freePort());
  const tcpPort = options.tcpPort ?? (await freePort());
  const args = [
    libchdbPath(),
    `--path=${dataDir}`,
    `--http_port=${httpPort}`,
    `--tcp_port=${tcpPort}`,
    '--listen_host=127.0.0.1',
    ...(options.configFile ? [`--config-file=${options.configFile}`] : []),
  ];
  const child = spawn(LAUNCHER, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const url = `http://127.0.0.1:${httpPort}`;
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`the ClickHouse server exited with ${child.exitCode ?? child.signalCode}: ${err.trim()}`);
    }
    try {
      if ((await (await fetch(`${url}/ping`)).text()) === 'Ok.\n') {
        break;
      }
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the ClickHouse server did not answer /ping at ${url}: ${err.trim()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    httpPort,
    tcpPort,
    dataDir,
    child,
    stderr: () => err,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) {
        return;
      }
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
