import type { INestApplication } from '@nestjs/common';
import { configOrExit, type AppConfig } from '@app/config';
import { createHttpApp } from './create-http-app';

export interface StartOptions {
  /** Why this app cannot run with this configuration (written to stderr, exit code 1), or undefined. */
  refuse?: (config: AppConfig) => string | undefined;
  /** Runs once the app listens (e.g. the first start's credentials banner). */
  onListening?: (app: INestApplication, config: AppConfig) => void;
}

/** The start of every app: configuration (or exit naming the variable), the HTTP app, listening on HOST:PORT. */
export async function startHttpApp(rootModule: (config: AppConfig) => unknown, options: StartOptions = {}): Promise<INestApplication> {
  const config = configOrExit();
  const refusal = options.refuse?.(config);
  if (refusal) {
    process.stderr.write(`Invalid configuration:\n  ${refusal}\n`);
    process.exit(1);
  }
  const app = await createHttpApp(rootModule(config), config);
  await app.listen(config.port, config.host);
  options.onListening?.(app, config);
  return app;
}
