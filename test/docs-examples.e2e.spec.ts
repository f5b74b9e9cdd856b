import { execFile } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { ROOT, freshDir, startService, type Service } from './support/processes';

const run = promisify(execFile);
/** The documents whose shell examples run here: the README and the API pages. */
const DOCUMENTS = ['README.md', ...readdirSync(path.join(ROOT, 'docs/api')).map((file) => `docs/api/${file}`)];
const text = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
/** What a command shows it answers: `# → 200` at the end of the line where the curl call ends. */
const SHOWN_STATUS = /# → (\d{3})$/gm;

/** Every shell block of the documents that calls curl, with its file and line (for the failure message). */
function curlBlocks(): Array<{ at: string; script: string }> {
  const blocks: Array<{ at: string; script: string }> = [];
  for (const file of DOCUMENTS) {
    for (const match of text(file).matchAll(/```sh\n([\s\S]*?)```/g)) {
      if (/\bcurl\b/.test(match[1])) {
        blocks.push({ at: `${file}:${text(file).slice(0, match.index).split('\n').length}`, script: match[1] });
      }
    }
  }
  return blocks;
}

/** An example of a document, exactly as printed between its markers. */
function example(file: string, name: string): string {
  const block = new RegExp(`<!-- ${name} -->\\s*\`\`\`sh\\n([\\s\\S]*?)\`\`\`\\s*<!-- /${name} -->`).exec(text(file));
  if (!block) {
    throw new Error(`${file} has no ${name} block`);
  }
  return block[1];
}

describe('the examples of the README and the API pages', () => {
  let service: Service;
  const basic = 'ops:docs-example-password';
  beforeAll(async () => {
    service = await startService('apps/standalone/src/main.js', { DATA_DIR: freshDir('readme'), SERVICE_BASIC_AUTH: basic });
  });
  afterAll(() => service.stop());

  it('really works with openssl and curl', async () => {
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', example('docs/api/authentication.md', 'signed-example')], {
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
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', example('docs/api/search-terms.md', 'analytics-example')], {
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

  // After the analytics example, whose answers count only its own events.
  it("runs the README's first steps: an event with Basic, a signed one, then the zero-result terms", async () => {
    const steps = ['first-event', 'signed-event', 'zero-results'].map((name) => example('README.md', name)).join('');
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', steps], {
      env: { PATH: process.env.PATH, BASE: service.url, BASIC: basic },
    });
    const sent = '{"accepted":2,"rejected":[]}{"accepted":1,"rejected":[]}';
    expect(stdout.slice(0, sent.length)).toBe(sent);
    const terms = JSON.parse(stdout.slice(sent.length)) as Array<Record<string, unknown>>;
    const { id, ...term } = terms[0];
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(term).toEqual({
      search_phrase: 'blue hat',
      count: 2,
      status: { handled: false, handlers: [], unhandled_languages: ['en'] },
    });
  });

  // After the analytics example, so that the service holds events for every command to find.
  // Many curl processes, one after another (in CI up to 30 s on a loaded machine): a wait, not a target.
  it('answers every curl command of the README and the API pages with the status they show', async () => {
    // Each curl call also writes its status to stderr; the block's commands run exactly as printed.
    const recordStatus = `curl() { command curl -w '%{stderr}CURL-STATUS %{http_code}\\n' "$@"; }`;
    const blocks = curlBlocks();
    expect(blocks.length).toBeGreaterThanOrEqual(10);
    for (const { at, script } of blocks) {
      const shown = [...script.matchAll(SHOWN_STATUS)].map((m) => m[1]);
      const { stderr } = await run('bash', ['-eo', 'pipefail', '-c', `${recordStatus}\n${script}`], {
        cwd: freshDir('readme-curl'),
        env: { PATH: process.env.PATH, BASE: service.url, BASIC: basic },
      });
      const answered = [...stderr.matchAll(/^CURL-STATUS (\d{3})$/gm)].map((m) => m[1]);
      expect({ at, answered }).toEqual({ at, answered: shown });
    }
  }, 60_000);
});
