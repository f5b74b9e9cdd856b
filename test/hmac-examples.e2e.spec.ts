import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { AUTH_FAILURES, signRequest } from '@app/auth';
import { basicHeader, createKey, http, startApp, type TestApp } from './support/test-app';

const ROOT = path.resolve(__dirname, '..');
const DOC = readFileSync(path.join(ROOT, 'docs/hmac.md'), 'utf8');

/** Each example of docs/hmac.md: the file, and the program that runs it. */
const EXAMPLES = [
  { file: 'docs/examples/sign-request.sh', runner: 'bash' },
  { file: 'docs/examples/sign-request.mjs', runner: 'node' },
  { file: 'docs/examples/sign_request.py', runner: 'python3' },
] as const;

interface Outcome {
  exitCode: number;
  status: number;
  body: unknown;
  stderr: string;
}

/** Runs an example as a user would; its output is the answer's body, then its status on the last line. */
function runExample(runner: string, file: string, env: Record<string, string>, args: string[]): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile(runner, [file, ...args], { cwd: ROOT, env: { PATH: process.env.PATH, ...env }, timeout: 20_000 }, (err, stdout, stderr) => {
      const lines = stdout.trimEnd().split('\n');
      const status = Number(lines.pop());
      const text = lines.join('\n');
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        /* not JSON: keep the text */
      }
      resolve({ exitCode: err ? Number(err.code ?? -1) : 0, status, body, stderr });
    });
  });
}

describe('docs/hmac.md', () => {
  it.each(EXAMPLES.map((e) => [e.file]))('shows %s exactly as the file is', (file) => {
    const block = new RegExp(`<!-- example: ${file} -->\\s*\`\`\`[a-z]*\\n([\\s\\S]*?)\`\`\``).exec(DOC);
    expect(block?.[1]).toBe(readFileSync(path.join(ROOT, file), 'utf8'));
  });

  it('lists every 401 message the service answers', () => {
    const rows = DOC.split('\n').filter((line) => line.startsWith('| `'));
    const missing = Object.values(AUTH_FAILURES).filter((message) => !rows.some((row) => row.startsWith(`| \`${message}\` `)));
    expect(missing).toEqual([]);
  });

  it("gives a test vector the service's signature agrees with", () => {
    const secret = '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef';
    const nonce = '9f86d081884c7d659a2feaa0c55ad015';
    const body = '{"events":[{"phrase":"blue hat","language":"de","hits":3}]}';
    expect(DOC).toContain(`secret \`${secret}\`, nonce\n\`${nonce}\``);
    expect(DOC).toMatch(new RegExp(`\\| none +\\| \`${signRequest(secret, nonce)}\` \\|`));
    expect(DOC).toContain(`| \`${body}\` | \`${signRequest(secret, nonce, body)}\` |`);
  });
});

describe('the signing examples of docs/hmac.md, run against the service', () => {
  let t: TestApp;
  let env: Record<string, string>;

  beforeAll(async () => {
    t = await startApp();
    const key = await createKey(t.url, ['search:read', 'search:write']);
    env = { BASE_URL: t.url, SECRET: key.secret };
  });
  afterAll(() => t.close());

  it.each(EXAMPLES.map((e) => [e.runner, e.file]))('%s %s: signs a GET and a POST /events with a body', async (runner, file) => {
    const phrase = `signed by ${runner}`;
    const posted = await runExample(runner, file, env, [
      'POST',
      '/events',
      JSON.stringify({ events: [{ phrase, language: 'de', hits: 2 }] }),
    ]);
    expect(posted).toEqual({ exitCode: 0, status: 202, body: { accepted: 1, rejected: [] }, stderr: '' });

    const listed = await runExample(runner, file, { ...env, INSTANCE: 'live' }, ['GET', '/search-terms?_end=1000']);
    expect([listed.exitCode, listed.status, listed.stderr]).toEqual([0, 200, '']);
    expect(listed.body).toEqual(expect.arrayContaining([expect.objectContaining({ search_phrase: phrase, count: 1 })]));

    // The event was stored once, for live, as a Basic caller sees it too.
    const seen = await http<Array<{ search_phrase: string }>>(`${t.url}/search-terms?_end=1000`, { headers: basicHeader() });
    expect(seen.body.filter((term) => term.search_phrase === phrase)).toHaveLength(1);
  });

  it.each(EXAMPLES.map((e) => [e.runner, e.file]))('%s %s: with a wrong secret, 401 naming the rule, exit code 1', async (runner, file) => {
    const refused = await runExample(runner, file, { ...env, SECRET: 'not-the-secret-0123456789' }, ['GET', '/search-terms']);
    expect(refused).toEqual({
      exitCode: 1,
      status: 401,
      body: { statusCode: 401, error: 'Unauthorized', message: AUTH_FAILURES.noKeyMatches },
      stderr: '',
    });
  });
});
