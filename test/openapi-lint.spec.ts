import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { parse } from 'yaml';
import { strictReadingProblems, type OpenApiDocument } from './support/openapi-contract';

const ROOT = path.resolve(__dirname, '..');
const FIXTURE = path.join(ROOT, 'test/fixtures/openapi-client.json');
const { scripts } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };

/** `npm run lint:openapi` with another document: the script's environment variables, the script's command. */
function lint(document: string): { status: number | null; output: string } {
  const match = /^((?:[A-Z_]+=\S+ )*)redocly lint docs\/openapi\.json$/.exec(scripts['lint:openapi']);
  if (!match) {
    throw new Error(`lint:openapi is not "VAR=value ... redocly lint docs/openapi.json": ${scripts['lint:openapi']}`);
  }
  const env = Object.fromEntries(
    match[1]
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map((a) => a.split('=') as [string, string]),
  );
  const res = spawnSync(path.join(ROOT, 'node_modules/.bin/redocly'), ['lint', document], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  return { status: res.status, output: `${res.stdout}${res.stderr}` };
}

describe('Redocly lint of the OpenAPI document (npm run lint:openapi)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'openapi-lint-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("uses the recommended ruleset as it is, and sends no telemetry and checks no updates (read in @redocly/cli's source)", () => {
    const config = parse(readFileSync(path.join(ROOT, 'redocly.yaml'), 'utf8')) as Record<string, unknown>;
    // No `rules` (nothing switched off or downgraded), no ignore file (which would hide problems).
    expect(config).toEqual({ extends: ['recommended'], telemetry: 'off' });
    expect(existsSync(path.join(ROOT, '.redocly.lint-ignore.yaml'))).toBe(false);
    expect(scripts['lint:openapi']).toMatch(/\bREDOCLY_TELEMETRY=off\b/);
    expect(scripts['lint:openapi']).toMatch(/\bREDOCLY_SUPPRESS_UPDATE_NOTICE=true\b/);
    expect(scripts.lint).toContain('npm run lint:openapi');
  });

  it('passes a document with warnings only', () => {
    const res = lint(FIXTURE);
    expect(res.output).toContain('info-license'); // a warning: no license in the fixture
    expect(res.output).toContain('Your API description is valid');
    expect(res.status).toBe(0);
  });

  it('fails a document with one error', () => {
    const doc = JSON.parse(readFileSync(FIXTURE, 'utf8')) as { paths: Record<string, Record<string, { summary?: string }>> };
    delete doc.paths['/events'].post.summary;
    const file = path.join(dir, 'error.json');
    writeFileSync(file, JSON.stringify(doc, null, 2));
    const res = lint(file);
    expect(res.output).toContain('operation-summary');
    expect(res.output).toMatch(/Validation failed with 1 error/);
    expect(res.status).toBe(1);
  });
});

describe('docs/openapi.json read as strict OpenAPI 3.0.3 tools read it (Prism, typed validators)', () => {
  const doc = JSON.parse(readFileSync(path.join(ROOT, 'docs/openapi.json'), 'utf8')) as OpenApiDocument;

  it('declares OpenAPI 3.0.3, the version whose reading of nullable the contract test holds to', () => {
    expect(doc.openapi).toBe('3.0.3');
  });

  it('says null only where strict tools admit it, and uses no construct they read otherwise (strictReadingProblems)', () => {
    // e.g. nullable beside allOf/$ref (null still has to match the referenced object), nullable without type,
    // siblings of $ref, 3.1 keywords: a lenient reader passes null or the keyword, a strict one does not.
    expect(strictReadingProblems(doc)).toEqual([]);
  });
});
