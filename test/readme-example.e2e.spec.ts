import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { ROOT, freshDir, startService, type Service } from './support/processes';

const run = promisify(execFile);

/** A README example, exactly as printed between its markers. */
function readmeExample(name: string): string {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const block = new RegExp(`<!-- ${name} -->\\s*\`\`\`sh\\n([\\s\\S]*?)\`\`\`\\s*<!-- /${name} -->`).exec(readme);
  if (!block) throw new Error(`README.md has no ${name} block`);
  return block[1];
}

describe('the README signed example', () => {
  let service: Service;
  const basic = 'ops:readme-example-password';
  beforeAll(async () => {
    service = await startService('apps/standalone/src/main.js', { DATA_DIR: freshDir('readme'), SERVICE_BASIC_AUTH: basic });
  });
  afterAll(() => service.stop());

  it('really works with openssl and curl', async () => {
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', readmeExample('signed-example')], {
      env: { PATH: process.env.PATH, BASE: service.url, BASIC: basic },
    });
    const keys = JSON.parse(stdout) as Array<{ description: string; secret?: string }>;
    expect(keys.map((k) => k.description)).toEqual(['my reader']);
    expect(keys[0].secret).toBeUndefined();
  });

  it('runs the analytics examples, one per endpoint, with curl', async () => {
    const authorization = `Basic ${Buffer.from(basic).toString('base64')}`;
    const events = [
      { phrase: 'Red Shoes', hits: 3 },
      { phrase: 'red shoes', hits: 0 },
      { phrase: 'socks', hits: 0 },
    ].map((e) => ({ ...e, language: 'de', ts: Date.now() - 3_600_000 }));
    const sent = await fetch(`${service.url}/events`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ events }),
    });
    expect(sent.status).toBe(202);
    const cwd = freshDir('readme-analytics');
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', readmeExample('analytics-example')], {
      cwd,
      env: { PATH: process.env.PATH, BASE: service.url, BASIC: basic },
    });
    expect(readFileSync(path.join(cwd, 'zero-results.csv'), 'utf8')).toBe(
      'search_phrase,count,handled,handlers\r\nred shoes,1,false,\r\nsocks,1,false,\r\n',
    );
    expect(stdout).toContain('"search_phrase":"red shoes","count":2,"zero_hit_count":1');
    expect(stdout).toContain('"variants":[{"phrase":"Red Shoes","count":1},{"phrase":"red shoes","count":1}]');
    expect(stdout).toContain('"totals":{"searches":3,"zero_hit_searches":2');
    expect(stdout).toContain('"previous":{"searches":0');
    expect(stdout).toContain('{"instances":["live"]}');
  });
});
