import { createHttpRequester } from '@algolia/requester-node-http';
import Ajv2019 from 'ajv/dist/2019';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { OpenApiContract, type OpenApiDocument } from './openapi-contract';

/**
 * Algolia's Analytics OpenAPI document (test/fixtures/algolia: a copy of algolia/api-clients-automation's
 * `specs/analytics` at d30a53d8, MIT, see its README), read by the same strict contract check as the service's own
 * document (test/support/openapi-contract.ts). An extra or a missing field fails.
 */
const FIXTURE = path.resolve(__dirname, '../fixtures/algolia/analytics.openapi.json');

/**
 * The places where the document cannot be read as it is, or contradicts a true answer, each named; nothing else is
 * changed.
 */
export const DOCUMENT_EXCEPTIONS = {
  nullType:
    "Seven schemas allow null as a `{ type: 'null' }` branch of `oneOf`, OpenAPI 3.1's form in a 3.0 document, which a " +
    '3.0 reading refuses: read as `nullable: true` of the other branch',
  noClickCount:
    '`noClickCount` says `minimum: 1`, yet `/2/searches/noClickRate` lists every day of the window, and a day without ' +
    'tracked searches (or with a click on each) has 0 searches without a click: the minimum is not checked',
  topOneOf:
    'The top searches and top hits answers are a `oneOf` of three lists, and an empty list matches all three, which ' +
    'oneOf refuses: the branch is picked from the request, by clickAnalytics and revenueAnalytics',
} as const;

type Schema = Record<string, unknown>;

/** `oneOf: [X, { type: 'null' }]` read as X with `nullable: true` (DOCUMENT_EXCEPTIONS.nullType). */
function withNullable(node: unknown): unknown {
  if (Array.isArray(node)) {
    return node.map(withNullable);
  }
  if (typeof node !== 'object' || node === null) {
    return node;
  }
  const o = node as Schema;
  const branches = o.oneOf as Schema[] | undefined;
  if (branches?.length === 2 && branches.some((b) => b.type === 'null')) {
    const rest = Object.fromEntries(Object.entries(o).filter(([k]) => k !== 'oneOf'));
    return withNullable({ ...rest, ...branches.find((b) => b.type !== 'null'), nullable: true });
  }
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, withNullable(v)]));
}

/** The document with its exceptions applied, and the top lists' branch fixed (0: plain, 1: clicks, 2: revenue). */
function documentFor(branch: 0 | 1 | 2): OpenApiDocument {
  const doc = withNullable(JSON.parse(readFileSync(FIXTURE, 'utf8'))) as { components: { schemas: Record<string, Schema> } };
  const schemas = doc.components.schemas;
  delete schemas.noClickCount.minimum;
  for (const name of ['getTopSearchesResponse', 'getTopHitsResponse']) {
    schemas[name] = (schemas[name].oneOf as Schema[])[branch];
  }
  return doc as unknown as OpenApiDocument;
}

const contracts = new Map<number, OpenApiContract>();
const errorBase = new Ajv2019({ strict: false }).compile(
  (JSON.parse(readFileSync(FIXTURE, 'utf8')) as { components: { schemas: { ErrorBase: object } } }).components.schemas.ErrorBase,
);

/**
 * The violations of Algolia's document by one answer of `GET /2/...`, in words (empty when it conforms). 401 and 429,
 * which the document declares nowhere, are checked against its `ErrorBase`.
 */
export function algoliaViolations(url: string, status: number, content: string): string[] {
  const query = new URL(url, 'http://service').searchParams;
  const branch = query.get('revenueAnalytics') === 'true' ? 2 : query.get('clickAnalytics') === 'true' ? 1 : 0;
  const body = content === '' ? undefined : (JSON.parse(content) as unknown);
  if (status === 401 || status === 429) {
    return errorBase(body) ? [] : [`${status}: not an ErrorBase: ${content}`];
  }
  let contract = contracts.get(branch);
  if (!contract) {
    contract = new OpenApiContract(documentFor(branch));
    contracts.set(branch, contract);
  }
  return contract.check({ method: 'GET', url, status, headers: { 'content-type': 'application/json' }, body, text: content });
}

/**
 * The real client's own Node requester, with every answer it receives checked against Algolia's document: a violation
 * fails the call that received it.
 */
export function checkedRequester(): ReturnType<typeof createHttpRequester> {
  const requester = createHttpRequester();
  return {
    async send(request) {
      const response = await requester.send(request);
      const violations = algoliaViolations(request.url, response.status, response.content);
      if (violations.length > 0) {
        throw new Error(`GET ${request.url} answered ${response.status} against Algolia's document:\n- ${violations.join('\n- ')}`);
      }
      return response;
    },
  };
}
