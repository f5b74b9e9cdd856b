import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { ROOT, freshDir, startService, type Service } from './support/processes';

const run = promisify(execFile);
const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
/** What a README command shows it answers: `# → 200` at the end of the line where the curl call ends. */
const SHOWN_STATUS = /# → (\d{3})$/gm;

/** Every shell block of the README that calls curl, with its line number (for the failure message). */
function readmeCurlBlocks(): Array<{ line: number; script: string }> {
  const blocks: Array<{ line: number; script: string }> = [];
  for (const match of README.matchAll(/```sh\n([\s\S]*?)```/g)) {
    if (/\bcurl\b/.test(match[1])) {
      blocks.push({ line: README.slice(0, match.index).split('\n').length, script: match[1] });
    }
  }
  return blocks;
}

/** A README example, exactly as printed between its markers. */
function readmeExample(name: string): string {
  const block = new RegExp(`<!-- ${name} -->\\s*\`\`\`sh\\n([\\s\\S]*?)\`\`\`\\s*<!-- /${name} -->`).exec(README);
  if (!block) {
    throw new Error(`README.md has no ${name} block`);
  }
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
    expect(stdout).toContain('{"instances":["live"],"permissions":["search:read",');
    expect(stdout).toContain('{"suggestions":[]}');
    // engagement=true: these searches were sent without ids, so none is tracked and every rate is null.
    expect(stdout).toContain('"tracked_searches":0,"clicked_searches":0,"click_through_rate":null,"clicks":0');
    expect(stdout).toContain('"positions":[{"position":1,"clicks":0}');
  });

  // After the analytics example, so that the service holds events for every command to find.
  // Many curl processes, one after another (in CI up to 30 s on a loaded machine): a wait, not a target.
  it('answers every curl command of the README with the status the README shows', async () => {
    // Each curl call also writes its status to stderr; the block's commands run exactly as printed.
    const recordStatus = `curl() { command curl -w '%{stderr}README-STATUS %{http_code}\\n' "$@"; }`;
    const blocks = readmeCurlBlocks();
    expect(blocks.length).toBeGreaterThanOrEqual(4);
    for (const { line, script } of blocks) {
      const shown = [...script.matchAll(SHOWN_STATUS)].map((m) => m[1]);
      const { stderr } = await run('bash', ['-eo', 'pipefail', '-c', `${recordStatus}\n${script}`], {
        cwd: freshDir('readme-curl'),
        env: { PATH: process.env.PATH, BASE: service.url, BASIC: basic },
      });
      const answered = [...stderr.matchAll(/^README-STATUS (\d{3})$/gm)].map((m) => m[1]);
      expect({ line, answered }).toEqual({ line, answered: shown });
    }
  }, 60_000);
});
