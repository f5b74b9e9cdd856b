import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as ts from 'typescript';
import { signRequest } from '@app/auth';
import { createKey, startApp, type TestApp } from './support/test-app';

const ROOT = path.resolve(__dirname, '..');
const CLIENT = path.join(ROOT, 'docs/client');
const FIXTURE = path.join(ROOT, 'test/fixtures/openapi-client.json');
const { scripts } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };

/**
 * Compiled with the example: what a consumer reads in the types must be the documented fields with their types, never
 * `any`, `never` or `unknown` (which a response without a schema, or an object schema without properties, produces
 * and which the example alone would accept in places, e.g. inside a template literal).
 */
const EXPECTATIONS = `
import type { EventsAnswer, EventsBody, SearchTermPage } from './example';

type IsAny<T> = 0 extends 1 & T ? true : false;
type Is<T, U> = IsAny<T> extends true ? false : [T] extends [never] ? false : [T] extends [U] ? ([U] extends [T] ? true : false) : false;
type Assert<T extends true> = T;
type Term = SearchTermPage[number];
type Rejected = EventsAnswer['rejected'][number];

export type Checks = [
  Assert<Is<Term['id'], string>>,
  Assert<Is<Term['search_phrase'], string>>,
  Assert<Is<Term['count'], number>>,
  // status is the status object or null (a nullable reference: one of the object and a null-only schema).
  Assert<Is<Extract<Term['status'], null>, null>>,
  Assert<Is<NonNullable<Term['status']>['handled'], boolean>>,
  Assert<Is<EventsAnswer['accepted'], number>>,
  Assert<Is<Rejected['index'], number>>,
  Assert<Is<Rejected['reason'], string>>,
];

// @ts-expect-error a misspelt field (hit for hits) is a compile error, as it is a rejected event at run time
export const typo: EventsBody = { events: [{ phrase: 'blue hat', language: 'de', hit: 3 }] };
`;

type Document = {
  paths: Record<string, Record<string, { responses: Record<string, { content?: unknown }> }>>;
  components: { schemas: Record<string, { properties?: unknown }> };
};

/** `npm run client` with another input and output, with the script's other flags (its Redocly configuration). */
function generateTypes(input: string, output: string): void {
  const [command, document, outputFlag, target, ...flags] = scripts.client.split(/\s+/);
  if (`${command} ${document} ${outputFlag} ${target}` !== 'openapi-typescript docs/openapi.json --output docs/client/api.d.ts') {
    throw new Error(`unexpected client script: ${scripts.client}`);
  }
  const res = spawnSync(path.join(ROOT, 'node_modules/.bin/openapi-typescript'), [input, '--output', output, ...flags], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (res.status !== 0) {
    throw new Error(`openapi-typescript failed on ${input}:\n${res.stdout}${res.stderr}`);
  }
}

describe('docs/client: the generated types and the example', () => {
  let dir: string;
  let freshTypes: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'client-example-'));
    freshTypes = path.join(dir, 'docs-openapi.d.ts');
    generateTypes(path.join(ROOT, 'docs/openapi.json'), freshTypes);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Types generated from the fixture document after `change`. */
  function fixtureTypes(name: string, change: (doc: Document) => void = () => undefined): string {
    const doc = JSON.parse(readFileSync(FIXTURE, 'utf8')) as Document;
    change(doc);
    writeFileSync(path.join(dir, `${name}.json`), JSON.stringify(doc));
    generateTypes(path.join(dir, `${name}.json`), path.join(dir, `${name}.d.ts`));
    return path.join(dir, `${name}.d.ts`);
  }

  let previous: ts.Program | undefined;
  /**
   * Compiles a copy of the example and the expectations next to `types` (as ./api.d.ts), with the options of
   * docs/client/tsconfig.json (strict, nothing emitted). Returns the diagnostics, formatted; none when it compiles.
   */
  function compile(types: string): string[] {
    const at = mkdtempSync(path.join(dir, 'compile-'));
    writeFileSync(path.join(at, 'api.d.ts'), readFileSync(types));
    writeFileSync(path.join(at, 'example.ts'), readFileSync(path.join(CLIENT, 'example.ts')));
    writeFileSync(path.join(at, 'expectations.ts'), EXPECTATIONS);
    const read = ts.readConfigFile(path.join(CLIENT, 'tsconfig.json'), (file) => ts.sys.readFile(file));
    const config: unknown = read.config;
    const parsed = ts.parseJsonConfigFileContent(config, ts.sys, CLIENT);
    const problems = [...(read.error ? [read.error] : []), ...parsed.errors];
    if (problems.length === 0) {
      const options = { ...parsed.options, typeRoots: [path.join(ROOT, 'node_modules/@types')] };
      // The previous program lends its unchanged files (the libraries, Node's types), which saves most of the time.
      const program = ts.createProgram([path.join(at, 'example.ts'), path.join(at, 'expectations.ts')], options, undefined, previous);
      previous = program;
      problems.push(...ts.getPreEmitDiagnostics(program));
    }
    const host = { getCanonicalFileName: (f: string) => f, getCurrentDirectory: () => at, getNewLine: () => '\n' };
    return problems.map((d) => ts.formatDiagnostic(d, host).trim());
  }

  it('the committed docs/client/api.d.ts is what `npm run client` writes from docs/openapi.json', () => {
    const same = readFileSync(path.join(CLIENT, 'api.d.ts'), 'utf8') === readFileSync(freshTypes, 'utf8');
    expect(same ? 'up to date' : 'stale: run `npm run client` (`npm run openapi` runs it) and commit docs/client/api.d.ts').toBe(
      'up to date',
    );
  });

  it('the example compiles (strict) against types generated afresh from docs/openapi.json', () => {
    expect(compile(freshTypes)).toEqual([]);
  });

  describe('the compile check fails when the document lacks what the example uses', () => {
    it('compiles against a document that describes both answers (the fixture)', () => {
      expect(compile(fixtureTypes('complete'))).toEqual([]);
    });

    it.each<[string, (doc: Document) => void, RegExp]>([
      ['POST /events without its 202 answer', (doc) => delete doc.paths['/events'].post.responses['202'], /Property '202' does not exist/],
      [
        'GET /search-terms answering 200 without a schema',
        (doc) => delete doc.paths['/search-terms'].get.responses['200'].content,
        /Property 'application\/json' does not exist/,
      ],
      [
        'a search term record without properties',
        (doc) => delete doc.components.schemas.SearchTermRecord.properties,
        /expectations\.ts.*does not satisfy the constraint 'true'/,
      ],
      [
        'a search term status that is not nullable',
        (doc) => delete (doc.components.schemas.SearchTermRecord.properties as { status: { nullable?: boolean } }).status.nullable,
        /expectations\.ts.*does not satisfy the constraint 'true'/,
      ],
      [
        'search events without properties',
        (doc) => delete doc.components.schemas.SearchEvent.properties,
        /example\.ts.*is not assignable to type 'never'/,
      ],
    ])('%s', (name, change, diagnostic) => {
      const diagnostics = compile(fixtureTypes(name.replace(/\W+/g, '-'), change));
      expect(diagnostics.join('\n')).toMatch(diagnostic);
    });
  });

  describe('run against the service', () => {
    interface Service {
      baseUrl: string;
      secret: string;
      instance?: string;
    }
    interface Example {
      signedHeaders(service: Service, body?: string): Record<string, string>;
      listSearchTerms(service: Service, query?: Record<string, string | number>): Promise<{ terms: unknown[]; total: number }>;
      submitEvents(service: Service, body: { events: object[] }): Promise<{ accepted: number; rejected: unknown[] }>;
      demo(service: Service): Promise<void>;
    }
    let t: TestApp;
    let example: Example;
    let service: Service;
    beforeAll(async () => {
      // Types only matter to the compiler: the example is transpiled as it is and loaded with Node's require.
      const source = readFileSync(path.join(CLIENT, 'example.ts'), 'utf8');
      const { outputText } = ts.transpileModule(source, {
        compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
        fileName: 'example.ts',
      });
      writeFileSync(path.join(dir, 'example.js'), outputText);
      example = createRequire(__filename)(path.join(dir, 'example.js')) as Example;
      t = await startApp();
      service = { baseUrl: t.url, secret: (await createKey(t.url, ['search:read', 'search:write'])).secret };
    }, 60_000);
    afterAll(() => t.close());

    it('signs as docs/hmac.md says: a 32-hex-character nonce, the hex HMAC-SHA256 of nonce:body with the secret', () => {
      const body = '{"events":[]}';
      const headers = example.signedHeaders({ ...service, instance: 'stage' }, body);
      expect(headers['X-Service-Nonce']).toMatch(/^[0-9a-f]{32}$/);
      expect(headers['X-Service-Hash']).toBe(signRequest(service.secret, headers['X-Service-Nonce'], body));
      expect(headers).toMatchObject({ 'Content-Type': 'application/json', 'X-Service-Instance': 'stage' });
      expect(example.signedHeaders(service)['X-Service-Hash']).toMatch(/^[0-9a-f]{64}$/);
    });

    it('POST /events answers 202 { accepted, rejected }; GET /search-terms the page and X-Total-Count', async () => {
      const answer = await example.submitEvents(service, {
        events: [
          { phrase: 'Blue  Hat', language: 'de', hits: 3 },
          {
            phrase: 'blue hat',
            language: 'de',
            hits: 1,
            userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/120.0 Safari/537.36',
          },
          { phrase: 'red hat', language: 'de', hit: 1 },
        ],
      });
      expect(answer).toEqual({ accepted: 2, rejected: [{ index: 2, reason: 'unknown field hit' }] });
      expect(await example.listSearchTerms(service, { language: 'de', _end: 5 })).toEqual({
        terms: [{ id: expect.any(String) as unknown, search_phrase: 'blue hat', count: 2, status: null }],
        total: 1,
      });
      // The instance comes from X-Service-Instance (the first one, live, without it).
      expect(await example.listSearchTerms({ ...service, instance: 'stage' }, { language: 'de' })).toEqual({ terms: [], total: 0 });
    });

    it('an answer other than 2xx throws with its status and body', async () => {
      await expect(example.listSearchTerms({ ...service, secret: 'not-the-secret' })).rejects.toThrow(/GET \/search-terms\? answered 401/);
    });

    it('demo: sends a search and prints the most searched terms', async () => {
      const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
      try {
        await example.demo({ ...service, instance: 'stage' });
        expect(log.mock.calls).toEqual([['1\tblue hat'], ['1 of 1 terms']]);
      } finally {
        log.mockRestore();
      }
    });
  });
});
