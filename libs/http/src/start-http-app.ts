import type { INestApplication } from '@nestjs/common';
import { ConfigurationError, configOrExit, type AppConfig } from '@app/config';
import { createHttpApp } from './create-http-app';
import { waitForMigrations } from './wait-for-migrations';

export interface StartOptions {
  /** Why this app cannot start with this configuration or data directory (written to stderr, exit code 1), or undefined. */
  refuse?: (config: AppConfig) => string | undefined;
  /**
   * What to write to stdout once the app is ready (e.g. the first start's credentials banner): after it listens, and
   * also when it then cannot listen, before the process exits.
   */
  announce?: (app: INestApplication, config: AppConfig) => string | undefined;
}

/** How long a start that cannot listen waits for the app to close (storage released) before it exits. */
const CLOSE_TIMEOUT_MS = 10_000;

/** The one line that says why the app cannot listen on HOST:PORT and which variable to change; undefined for other errors. */
export function listenFailure(err: unknown, config: Pick<AppConfig, 'host' | 'port'>): string | undefined {
  const where = `${config.host}:${config.port}`;
  switch ((err as { code?: unknown } | undefined)?.code) {
    case 'EADDRINUSE':
      return `Cannot listen on ${where}: port ${config.port} is in use by another process; stop it or set PORT to a free port.`;
    case 'EACCES':
      return `Cannot listen on ${where}: port ${config.port} is not allowed for this user; set PORT to a port above 1023.`;
    case 'EADDRNOTAVAIL':
      return `Cannot listen on ${where}: ${config.host} is not an address of this machine; set HOST (0.0.0.0 for all).`;
    default:
      return undefined;
  }
}

/** The start of every app: configuration (or exit naming the variable), the HTTP app, listening on HOST:PORT. */
export async function startHttpApp(rootModule: (config: AppConfig) => unknown, options: StartOptions = {}): Promise<INestApplication> {
  const config = configOrExit();
  const refusal = options.refuse?.(config);
  if (refusal) {
    process.stderr.write(`Cannot start:\n  ${refusal}\n`);
    process.exit(1);
  }
  let app: INestApplication;
  try {
    const stopWaiting = config.migrateOnStart ? undefined : await waitForMigrations(config);
    app = await createHttpApp(rootModule(config), config);
    await app.init();
    await stopWaiting?.();
  } catch (err) {
    // What the storage says of the configuration (CLICKHOUSE_CLUSTER naming a cluster it lacks): one line, no stack.
    if (!(err instanceof ConfigurationError)) {
      throw err;
    }
    process.stderr.write(`Cannot start:\n  ${err.message}\n`);
    process.exit(1);
  }
  const announcement = options.announce?.(app, config);
  try {
    await app.listen(config.port, config.host);
  } catch (err) {
    const reason = listenFailure(err, config);
    if (!reason) {
      throw err;
    }
    if (announcement) {
      process.stdout.write(announcement);
    }
    process.stderr.write(`${reason}\n`);
    await Promise.race([app.close().catch(() => undefined), new Promise((r) => setTimeout(r, CLOSE_TIMEOUT_MS).unref())]);
    process.exit(1);
  }
  if (announcement) {
    process.stdout.write(announcement);
  }
  return app;
}
