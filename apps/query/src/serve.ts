import type { INestApplication } from '@nestjs/common';
import { ConfigurationError, loadConfig, type AppConfig } from '@app/config';
import { createHttpApp } from '@app/http';
import { CredentialsBootstrap } from './bootstrap/credentials-bootstrap.service';
import { firstStartBanner } from './bootstrap/first-start-banner';

/** Loads the configuration or stops the process with one message naming the variable. */
export function configOrExit(): AppConfig {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigurationError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
}

/** Starts an HTTP-serving app on HOST:PORT and prints the first-start credentials, if any. */
export async function serve(rootModule: (config: AppConfig) => unknown): Promise<INestApplication> {
  const config = configOrExit();
  const app = await createHttpApp(rootModule(config), config);
  await app.listen(config.port, config.host);
  const generated = app.get(CredentialsBootstrap).takeGenerated();
  if (generated) process.stdout.write(firstStartBanner(generated, `http://localhost:${config.port}`, config.dataDir));
  return app;
}
