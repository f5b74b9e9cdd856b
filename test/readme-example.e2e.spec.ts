import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { ROOT, freshDir, startService, type Service } from './support/processes';

const run = promisify(execFile);

/** The README's copy-paste example, exactly as printed between its markers. */
function readmeExample(): string {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const block = /<!-- signed-example -->\s*```sh\n([\s\S]*?)```\s*<!-- \/signed-example -->/.exec(readme);
  if (!block) throw new Error('README.md has no signed-example block');
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
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', readmeExample()], {
      env: { PATH: process.env.PATH, BASE: service.url, BASIC: basic },
    });
    const keys = JSON.parse(stdout) as Array<{ description: string; secret?: string }>;
    expect(keys.map((k) => k.description)).toEqual(['my reader']);
    expect(keys[0].secret).toBeUndefined();
  });
});
