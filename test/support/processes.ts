import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { freePort } from '../../bench/proc';
import { withTestStorage } from './storage-mode';

// A port nobody listens on: shared with the benchmarks (bench/ is built without test/).
export { freePort };

export const ROOT = path.resolve(__dirname, '../..');

export function distEntry(relative: string): string {
  const file = path.join(ROOT, 'dist', relative);
  if (!existsSync(file)) {
    throw new Error(`${file} is missing: run \`npm run build\` (npm test does) before these tests`);
  }
  return file;
}

export function freshDir(prefix: string): string {
  return mkdtempSync(path.join(tmpdir(), `${prefix}-`));
}

/** Only the variables a test passes, plus PATH/HOME: the developer's own environment must not leak in. */
export function cleanEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME, ...env };
}

export interface Service {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  url: string;
  stop(): Promise<number | null>;
}

/** The signal that ended the service's process (null when it exited by itself), once it has ended. */
export function exitSignal(s: Service): Promise<NodeJS.Signals | null> {
  if (s.child.exitCode !== null || s.child.signalCode !== null) {
    return Promise.resolve(s.child.signalCode);
  }
  return new Promise((resolve) => s.child.once('exit', (_code, signal) => resolve(signal)));
}

/**
 * Starts a built app as its own process (with `preload` scripts from test/support) and waits until `probe` answers 200,
 * or, with a preload, until the preload ended it.
 */
export async function startService(
  entry: string,
  env: Record<string, string>,
  timeoutMs = 30_000,
  preload: string[] = [],
  probe = '/health',
): Promise<Service> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startServiceOnce(entry, env, timeoutMs, preload, probe);
    } catch (e) {
      // A port picked for the test (not one it set) may be taken by another process before the app listens: pick again.
      if (env.PORT !== undefined || attempt === 3 || !/port \d+ is in use/.test(String(e))) {
        throw e;
      }
    }
  }
}

async function startServiceOnce(
  entry: string,
  env: Record<string, string>,
  timeoutMs: number,
  preload: string[],
  probe: string,
): Promise<Service> {
  const port = Number(env.PORT ?? (await freePort()));
  const args = [...preload.flatMap((p) => ['--require', path.join(__dirname, p)]), distEntry(entry)];
  const child = spawn(process.execPath, args, {
    env: cleanEnv(withTestStorage({ ...env, PORT: String(port) })),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // A preloaded fault injection (crash-after-insert.js) may kill the process before /health answers, on a slow
    // machine: that is the end its test waits for, so the service is returned ended.
    if (child.signalCode !== null && preload.length > 0) {
      break;
    }
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`service exited with ${child.exitCode ?? child.signalCode}: ${err}`);
    }
    try {
      const res = await fetch(`${url}${probe}`);
      if (res.status === 200) {
        break;
      }
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`service did not become healthy: ${err}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    child,
    url,
    stdout: () => out,
    stderr: () => err,
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
      }
      return exited;
    },
  };
}

/** Runs a built script to completion. */
export function runScript(
  entry: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [distEntry(entry), ...args], {
      env: cleanEnv(withTestStorage(env)),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The value printed after `label:` (credentials in a banner or a CLI answer); throws naming the label when absent. */
export function printedField(text: string, label: string): string {
  const m = new RegExp(`${label}:\\s+(\\S+)`).exec(text);
  if (!m) {
    throw new Error(`${label} not printed in:\n${text}`);
  }
  return m[1];
}

/** Where the tests of a describe block put the service they start: it is stopped after each test. */
export function stoppedAfterEach(): { service?: Service } {
  const slot: { service?: Service } = {};
  afterEach(async () => {
    await slot.service?.stop();
    slot.service = undefined;
  });
  return slot;
}
