import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import * as path from 'node:path';

/** The credentials a first start generated, as printed (Basic in plain, the legacy secret). */
export interface GeneratedCredentials {
  customer: string;
  instances: string[];
  basicLogin: string;
  basicPassword: string;
  legacySecret: string;
}

/** Beside the embedded engine's files; readable by the service's user only. */
export const INITIAL_CREDENTIALS_FILE = 'initial-credentials.json';

/**
 * The plain generated credentials, kept in DATA_DIR (mode 0600) only until the Basic ones are first used, so every
 * start until then can print them again (as Jenkins keeps its initialAdminPassword). Storage keeps only the
 * password's hash; this file is the one place the plain password lives, and it is deleted once it is not needed.
 */
export class InitialCredentialsFile {
  readonly path: string;

  constructor(dataDir: string) {
    this.path = path.resolve(dataDir, INITIAL_CREDENTIALS_FILE);
  }

  async write(credentials: GeneratedCredentials): Promise<void> {
    await mkdir(path.dirname(this.path), { recursive: true });
    // The mode applies when the file is created; chmod covers a file left behind with another mode.
    await writeFile(this.path, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
    await chmod(this.path, 0o600);
  }

  /** The kept credentials of `customer`, or undefined when there are none (or the file is not readable as such). */
  async read(customer: string): Promise<GeneratedCredentials | undefined> {
    let parsed: Partial<GeneratedCredentials>;
    try {
      parsed = JSON.parse(await readFile(this.path, 'utf8')) as Partial<GeneratedCredentials>;
    } catch {
      return undefined;
    }
    const complete =
      parsed.customer === customer &&
      Array.isArray(parsed.instances) &&
      typeof parsed.basicLogin === 'string' &&
      typeof parsed.basicPassword === 'string' &&
      typeof parsed.legacySecret === 'string';
    return complete ? (parsed as GeneratedCredentials) : undefined;
  }

  async remove(): Promise<void> {
    await rm(this.path, { force: true });
  }
}
