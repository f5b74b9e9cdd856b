import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
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
    await mkdir(path.dirname(this.path), { recursive: true, mode: 0o700 });
    // A new file created with mode 0600 (flag wx: never one left behind with another mode), then renamed over the
    // old one: the password is never in a file others can read, and a reader sees the old or the new file whole.
    const fresh = `${this.path}.${process.pid}.tmp`;
    await rm(fresh, { force: true });
    await writeFile(fresh, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
    await rename(fresh, this.path);
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
