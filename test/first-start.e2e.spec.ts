import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { basicHeader, hmacHeaders, http } from './support/test-app';
import { freshDir, printedField as field, runScript, startService, type Service } from './support/processes';

const run = promisify(execFile);

const STANDALONE = 'apps/standalone/src/main.js';

describe('the built service as a process (fresh DATA_DIR, restart, revoke)', () => {
  const dataDir = freshDir('first-start');
  let service: Service | undefined;
  afterEach(async () => {
    await service?.stop();
    service = undefined;
  });

  let password = '';
  let legacySecret = '';
  let key = { id: '', secret: '' };

  it('prints usable credentials on the first start with nothing configured', async () => {
    service = await startService(STANDALONE, { DATA_DIR: dataDir });
    const banner = service.stdout();
    expect(banner).toContain('First start: credentials were generated for customer "demo"');
    password = field(banner, 'Basic password');
    legacySecret = field(banner, 'Legacy secret');
    expect(legacySecret).toMatch(/^[0-9a-f]{64}$/);
    // Secrets go to stdout (until the Basic ones are used), never through the logger (stderr/log lines).
    expect(service.stderr()).not.toContain(legacySecret);

    const listed = await http<Array<{ description: string; permissions: string[] }>>(`${service.url}/secret`, {
      headers: basicHeader('admin', password),
    });
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([
      expect.objectContaining({ description: 'legacy secret', permissions: ['persistence:write', 'search:write'] }),
    ]);
    // The signed example printed in the banner works as pasted.
    const example = /Try it: send one signed search event with the legacy secret\n\n([\s\S]*?)\n\nand list/.exec(banner)?.[1];
    expect(example).toBeDefined();
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', example!.replace(/localhost:\d+/, service.url.replace('http://', ''))]);
    expect(JSON.parse(stdout)).toEqual({ accepted: 1, rejected: [] });
    // The legacy secret is an Importer: authenticated (403, not 401) where it lacks the permission.
    expect((await http(`${service.url}/secret`, { headers: hmacHeaders(legacySecret) })).status).toBe(403);
    expect((await http(`${service.url}/secret`, { headers: hmacHeaders('0'.repeat(64)) })).status).toBe(401);

    const created = await http<{ id: string; secret: string }>(`${service.url}/secret`, {
      method: 'POST',
      headers: { ...basicHeader('admin', password), 'content-type': 'application/json' },
      body: JSON.stringify({ description: 'survives restarts', permissions: ['secret:read'] }),
    });
    expect(created.status).toBe(201);
    key = created.body;
    expect((await http(`${service.url}/secret`, { headers: hmacHeaders(key.secret) })).status).toBe(200);
  });

  it('keeps keys and credentials across a restart on the same DATA_DIR, and prints nothing again', async () => {
    service = await startService(STANDALONE, { DATA_DIR: dataDir });
    expect(service.stdout()).not.toContain('First start');
    expect((await http(`${service.url}/secret`, { headers: hmacHeaders(key.secret) })).status).toBe(200);
    const revoked = await http(`${service.url}/secret/${key.id}`, { method: 'DELETE', headers: basicHeader('admin', password) });
    expect(revoked.status).toBe(200);
    expect((await http(`${service.url}/secret`, { headers: hmacHeaders(key.secret) })).status).toBe(401);
  });

  it('keeps a revoked key revoked after another restart', async () => {
    service = await startService(STANDALONE, { DATA_DIR: dataDir });
    expect((await http(`${service.url}/secret`, { headers: hmacHeaders(key.secret) })).status).toBe(401);
  });

  it('stops at start-up with a message naming a wrong variable', async () => {
    const result = await runScript(STANDALONE, [], { DATA_DIR: freshDir('bad-config'), PORT: 'eighty' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Invalid configuration:');
    expect(result.stderr).toContain('PORT="eighty"');
  });

  it('provisions a customer with the CLI in multi-customer mode', async () => {
    const dir = freshDir('cli');
    const env = { DATA_DIR: dir, BASE_DOMAIN: 'api.example.test' };
    const cli = await runScript('apps/query/src/cli.js', ['customer:create', 'shop2', '--instances', 'live,stage'], env);
    expect(cli.stderr).toBe('');
    expect(cli.code).toBe(0);
    const pw = field(cli.stdout, 'Basic password');
    service = await startService(STANDALONE, env);
    const headers = { host: 'shop2.api.example.test', ...basicHeader('admin', pw) };
    expect((await http(`${service.url}/secret`, { headers: { ...headers, 'x-service-instance': 'stage' } })).status).toBe(200);
    expect((await http(`${service.url}/secret`, { headers: { ...headers, host: 'shop3.api.example.test' } })).status).toBe(401);
    const again = await runScript('apps/query/src/cli.js', ['customer:create', 'Bad_Name'], env);
    expect(again.code).toBe(2);
  });
});
