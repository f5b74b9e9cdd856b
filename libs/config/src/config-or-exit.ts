import { ConfigurationError, loadConfig, type AppConfig } from './app-config';

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
