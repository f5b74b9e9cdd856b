import { existsSync, statSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import * as path from 'node:path';
import { eventually } from './support/storage';
import { basicHeader, http } from './support/test-app';
import { freshDir, printedField as field, runScript, startService, stoppedAfterEach, type Service } from './support/processes';

const STANDALONE = 'apps/standalone/src/main.js';
const CLI = 'apps/query/src/cli.js';
const KEPT = 'initial-credentials.json';

/** A port another process listens on (what a user meets when something already runs on 3000). */
async function busyPort(): Promise<{ port: number; close(): Promise<void> }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
  return { port: (server.address() as AddressInfo).port, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** The stdout of a started service once its banner (if any) is complete. */
async function bannerOf(service: Service): Promise<string> {
  return eventually(
    () => service.stdout(),
    (out) => out.includes('list the API keys with Basic'),
    2_000,
  );
}

const secretStatus = async (service: Service, password: string) =>
  (await http(`${service.url}/secret`, { headers: basicHeader('admin', password) })).status;

describe('generated credentials cannot lock anyone out (printed until first used; credentials:reset)', () => {
  const dataDir = freshDir('first-use');
  const running = stoppedAfterEach();

  let password = '';
  let legacySecret = '';

  it('prints the credentials and one line naming the port and PORT when the first start finds its port busy', async () => {
    const busy = await busyPort();
    try {
      const first = await runScript(STANDALONE, [], { DATA_DIR: dataDir, PORT: String(busy.port) });
      expect(first.code).toBe(1);
      expect(first.stdout).toContain('First start: credentials were generated for customer "demo"');
      password = field(first.stdout, 'Basic password');
      legacySecret = field(first.stdout, 'Legacy secret');
      expect(first.stderr.trim().split('\n')).toEqual([expect.stringMatching(new RegExp(`port ${busy.port} is in use.*set PORT`))]);
      expect(first.stderr).not.toMatch(/^\s+at /m); // no stack trace
    } finally {
      await busy.close();
    }
    // The plain copy that makes the next start able to print them: readable by the service's user only.
    expect(statSync(path.join(dataDir, KEPT)).mode & 0o777).toBe(0o600);
  });

  it('prints the same credentials on the next start until they are used, with the dashboard, API and docs addresses', async () => {
    const service = (running.service = await startService(STANDALONE, { DATA_DIR: dataDir }));
    const banner = await bannerOf(service);
    expect([field(banner, 'Basic password'), field(banner, 'Legacy secret')]).toEqual([password, legacySecret]);
    const base = service.url.replace('127.0.0.1', 'localhost');
    expect(banner).toMatch(new RegExp(`Dashboard:\\s+${base}/dashboard\\s`));
    expect(banner).toMatch(new RegExp(`API:\\s+${base}\\s`));
    expect(banner).toMatch(new RegExp(`API docs:\\s+${base}/docs\\s`));
    expect(service.stderr()).not.toContain(password);

    expect(await secretStatus(service, 'wrong-password')).toBe(401);
    expect(existsSync(path.join(dataDir, KEPT))).toBe(true); // a failed sign-in is no use
    expect(await secretStatus(service, password)).toBe(200);
    expect(existsSync(path.join(dataDir, KEPT))).toBe(false); // used: the plain copy is gone
  });

  it('no longer prints them once they were used, and they keep working', async () => {
    const service = (running.service = await startService(STANDALONE, { DATA_DIR: dataDir }));
    await new Promise((r) => setTimeout(r, 300));
    expect(service.stdout()).not.toContain('First start');
    expect(service.stdout()).not.toContain(password);
    expect(await secretStatus(service, password)).toBe(200);
  });

  it('redirects GET / to the dashboard', async () => {
    const service = (running.service = await startService(STANDALONE, { DATA_DIR: dataDir }));
    const res = await http(`${service.url}/`);
    expect([res.status, res.headers.location]).toEqual([302, '/dashboard']);
  });

  let newPassword = '';

  it('credentials:reset prints new Basic credentials for a stopped data directory; the old ones stop working', async () => {
    const reset = await runScript(CLI, ['credentials:reset'], { DATA_DIR: dataDir });
    expect([reset.code, reset.stderr]).toEqual([0, '']);
    expect(field(reset.stdout, 'Basic login')).toBe('admin');
    newPassword = field(reset.stdout, 'Basic password');
    expect(newPassword).not.toBe(password);

    const service = (running.service = await startService(STANDALONE, { DATA_DIR: dataDir }));
    await new Promise((r) => setTimeout(r, 300));
    expect(service.stdout()).not.toContain('First start');
    expect(await secretStatus(service, password)).toBe(401);
    expect(await secretStatus(service, newPassword)).toBe(200);
  });

  it('credentials:reset is refused while a service holds the data directory, which keeps working', async () => {
    const service = (running.service = await startService(STANDALONE, { DATA_DIR: dataDir }));
    const refused = await runScript(CLI, ['credentials:reset', 'demo'], { DATA_DIR: dataDir });
    expect(refused.code).not.toBe(0);
    expect(refused.stdout).not.toContain('Basic password');
    expect(refused.stderr).toContain(`DATA_DIR ${dataDir} is in use by another process`);
    expect(refused.stderr).not.toMatch(/^\s+at /m); // no stack trace
    expect(await secretStatus(service, newPassword)).toBe(200);
    // A second service on the same directory: one line naming DATA_DIR, no stack, and the first one keeps working.
    const second = await runScript(STANDALONE, [], { DATA_DIR: dataDir, PORT: '0' });
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`DATA_DIR ${dataDir} is in use by another process`);
    expect(second.stderr).not.toMatch(/^\s+at /m);
    expect(await secretStatus(service, newPassword)).toBe(200);
  });

  it('credentials:reset names an unknown customer, and is refused where SERVICE_BASIC_AUTH would undo it', async () => {
    const unknown = await runScript(CLI, ['credentials:reset', 'shop9'], { DATA_DIR: dataDir });
    expect([unknown.code, unknown.stderr]).toEqual([1, 'no customer shop9 in this storage\n']);
    const configured = await runScript(CLI, ['credentials:reset'], { DATA_DIR: dataDir, SERVICE_BASIC_AUTH: 'ops:a-long-password' });
    expect(configured.code).toBe(1);
    expect(configured.stderr).toContain('SERVICE_BASIC_AUTH is set');
  });
});

describe('SERVICE_BASIC_AUTH set after a first start', () => {
  it('wins over the generated Basic credentials, which are no longer printed', async () => {
    const dataDir = freshDir('first-use-configured');
    const busy = await busyPort();
    let generated = '';
    try {
      generated = field((await runScript(STANDALONE, [], { DATA_DIR: dataDir, PORT: String(busy.port) })).stdout, 'Basic password');
    } finally {
      await busy.close();
    }
    const service = await startService(STANDALONE, { DATA_DIR: dataDir, SERVICE_BASIC_AUTH: 'ops:a-long-password' });
    try {
      await new Promise((r) => setTimeout(r, 300));
      expect(service.stdout()).not.toContain('First start');
      expect(existsSync(path.join(dataDir, KEPT))).toBe(false);
      expect(await secretStatus(service, generated)).toBe(401);
      expect((await http(`${service.url}/secret`, { headers: basicHeader('ops', 'a-long-password') })).status).toBe(200);
    } finally {
      await service.stop();
    }
  });
});
