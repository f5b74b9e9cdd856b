import { existsSync } from 'node:fs';
import * as path from 'node:path';
import type { AppConfig } from '@app/config';

/** What the embedded engine of a running process keeps locked (flock) in its data directory while it runs. */
const STATUS_FILE = 'status';

/** A data directory this process holds open until `release`. */
export interface DataDirHold {
  release(): void;
}

/**
 * Opens the embedded engine's data directory for this process, before anything else does, or answers 'held' when
 * another process (a running service) has it: the engine locks DATA_DIR/status while it runs, and a second process
 * cannot open the directory (chdb: CHDB_CONNECTION, the engine's "Cannot lock file ... status"). Held open until
 * `release`, so a service starting meanwhile cannot take it either. On a ClickHouse server (CLICKHOUSE_URL) nothing
 * is locked: processes share the server.
 */
export function holdDataDir(config: AppConfig): DataDirHold | 'held' {
  if (config.clickhouse.url) {
    return { release: () => undefined };
  }
  // Loaded only here so a server deployment never maps the embedded engine into memory.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- synchronous, as ClickHouseService loads it
  const { Session } = require('chdb') as { Session: new (path: string) => { close(): void } };
  try {
    const session = new Session(config.dataDir);
    return { release: () => session.close() };
  } catch (err) {
    const held = (err as { code?: unknown }).code === 'CHDB_CONNECTION' && existsSync(path.join(config.dataDir, STATUS_FILE));
    if (held) {
      return 'held';
    }
    throw err;
  }
}

/**
 * A service's start refusal (one line naming DATA_DIR) when another process holds its embedded data directory, or
 * undefined (the directory is free again at once, for this process's engine to open).
 */
export function dataDirInUse(config: AppConfig): string | undefined {
  const hold = holdDataDir(config);
  if (hold === 'held') {
    return `DATA_DIR ${config.dataDir} is in use by another process (a running service?); stop it, or set DATA_DIR to another directory`;
  }
  hold.release();
  return undefined;
}
