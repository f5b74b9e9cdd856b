import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { AUTH_HEADERS } from '@app/auth';
import { ERROR_SCHEMA, ERROR_STATUSES, type ErrorStatus } from '@app/errors';

// The document's parts, as @nestjs/swagger types them (its package root exports only the whole document's type).
type OperationObject = NonNullable<OpenAPIObject['paths'][string]['get']>;
type Parameter = NonNullable<OperationObject['parameters']>[number];
type Responses = OperationObject['responses'];
type ResponseObject = Exclude<Responses[string], { $ref: string } | undefined>;

/** The API's version (info.version); follows package.json's, which a test compares. */
export const API_VERSION = '0.1.0';

/** The tags, in the order a reader meets them, each with what it groups. */
const TAGS: Array<[string, string]> = [
  ['Search terms', 'What shoppers searched, and which terms found nothing (merchandisers, admins, dashboards)'],
  ['Search statistics', 'Searches, the zero-result rate and distinct terms over time'],
  ['Annotations', 'Notes on the timeline (a campaign, a release) that the dashboard draws on its charts'],
  ['Instances', 'The instances a credential may act on (the dashboard instance selector)'],
  ['Events', 'Search events from search frontends (also accepted on Kafka)'],
  ['Insights', "Clicks, conversions and views from shoppers' browsers (Algolia's Insights protocol), and erasing a user token"],
  ['Documents', 'Catalogue documents with ranking mix boost values (also accepted on Kafka)'],
  ['Ranking mix', 'Whether the catalogue holds usable data for each boost field'],
  ['Entities', 'Pages, banners, synonyms and the other entity types whose changes call the webhook'],
  ['Configuration', "The instance's configuration: the webhook delivery URL"],
  ['Notifications', 'Failed webhook calls and rejected events, for the admin area'],
  ['API keys', 'Keys that sign HMAC requests (also called shared secrets)'],
  [
    "Algolia's Analytics API",
    "Algolia's Analytics API v2 for its clients (`@algolia/client-analytics` with `hosts` set to the service): each route adapts a " +
      'native answer; what each field counts: docs/algolia.md in the repository. Example: `curl ' +
      '"$BASE/2/searches?index=live" -H \'X-Algolia-Application-Id: demo\' -H "X-Algolia-API-Key: $ANALYTICS_KEY"` ' +
      'answers 200 with `{ "searches": [{ "search", "count", "nbHits" }] }`',
  ],
  ['Health', 'Probes for load balancers and orchestrators (no credentials)'],
  ['Metrics', 'Prometheus metrics (no credentials)'],
];

const REQUEST_ID = {
  description: 'The request id: the X-Request-Id the client sent (when it is a safe token), else a new one; also in the logs',
  required: true,
  schema: { type: 'string' },
};

/** The document generated from the controllers and DTOs, completed with what decorators cannot say (refine). */
export function openApiDocument(app: INestApplication): OpenAPIObject {
  const builder = new DocumentBuilder()
    // 3.0.3: the 3.0 patch that says how `nullable` reads (docs/decisions/0030-a-strict-contract.md); Nest writes 3.0.0.
    .setOpenAPIVersion('3.0.3')
    .setTitle('Search analytics')
    .setDescription(
      'Search analytics and configuration backend for online shops: search events and catalogue documents in, search ' +
        'terms (and the ones that found nothing), the ranking mix data check, entities with webhook delivery, ' +
        'notifications and API keys out. Every protected operation takes any of the three schemes (HMAC-signed ' +
        'request, Basic with the instance credentials, or an admin JWT); errors answer `{ statusCode, error, message }`. ' +
        'POST /1/events, the Insights protocol, takes a collector key only and answers as Algolia does.',
    )
    .setVersion(API_VERSION)
    .setLicense('Proprietary (UNLICENSED)', 'https://docs.npmjs.com/cli/v10/configuring-npm/package-json#license')
    .addServer('http://localhost:3000', 'npm start: the embedded default on port 3000')
    .addServer('https://{customer}.{baseDomain}', 'With BASE_DOMAIN set: one host name per customer', {
      customer: { default: 'shop', description: 'The customer (installation) name' },
      baseDomain: { default: 'search.localhost', description: 'BASE_DOMAIN of the deployment' },
    })
    .addSecurity('hmac', {
      type: 'apiKey',
      in: 'header',
      name: 'X-Service-Hash',
      description:
        "Hex HMAC-SHA256 of X-Service-Nonce + ':' + the body, keyed with an API key's secret; send X-Service-Nonce too " +
        '(parameters X-Service-Nonce and X-Service-Hash). OpenAPI cannot express this signature, so a generated client ' +
        'signs in a hook of its own: the nonce is new for every request (8 to 128 characters of A-Z, a-z, 0-9, _ and -, ' +
        'e.g. 16 random bytes as 32 hex characters; accepted once per customer within 24 h), the signed text is nonce + ' +
        "':' + the raw body exactly as sent (nothing after the colon without a body), the key is the secret's text, and " +
        'the request names no key (the matching active key applies). A 401 names the rule that failed. Worked examples ' +
        '(curl with openssl, Node, Python) and every 401 message with what to fix: docs/hmac.md in the repository.',
    })
    .addSecurity('collectorApplication', {
      type: 'apiKey',
      in: 'query',
      name: 'X-Algolia-Application-Id',
      description: 'POST /1/events: the customer (search-insights: `appId`); or the header of the same name',
    })
    .addSecurity('collectorKey', {
      type: 'apiKey',
      in: 'query',
      name: 'X-Algolia-API-Key',
      description:
        'POST /1/events: a collector key (`POST /secret` with `"preset": "collector"`; search-insights: `apiKey`), public by ' +
        'design and valid nowhere else; or the header of the same name',
    })
    .addSecurity('analyticsApplication', {
      type: 'apiKey',
      in: 'header',
      name: 'X-Algolia-Application-Id',
      description: 'GET /2/...: the customer (the analytics client: `appId`); or the query parameter of the same name',
    })
    .addSecurity('analyticsKey', {
      type: 'apiKey',
      in: 'header',
      name: 'X-Algolia-API-Key',
      description:
        'GET /2/...: an analytics key (`POST /secret` with `"preset": "analytics"`; the analytics client: `apiKey`), valid ' +
        'nowhere else; or the query parameter of the same name',
    })
    .addBasicAuth({ type: 'http', scheme: 'basic', description: "The instance's own credentials (login and password)" }, 'basic')
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Admin user token; permissions in dot notation (search.read)' },
      'jwt',
    );
  for (const [name, description] of TAGS) {
    builder.addTag(name, description);
  }
  return refine(SwaggerModule.createDocument(app, builder.build()));
}

/**
 * Schemas that allow no other property, as the protocol they follow defines them: Algolia's EventsResponse (POST
 * /1/events), which clients generated from Algolia's document check.
 */
const CLOSED_SCHEMAS = ['EventsResponse'];

/**
 * What holds for every operation and is written once here (and the CLOSED_SCHEMAS closed):
 * - the HMAC and instance headers become reusable parameters (components.parameters), referenced by each operation;
 * - every answer carries X-Request-Id (the onRequest hook of createHttpApp sets it);
 * - an operation with input (a path or query parameter, or a body: every method but GET) can answer 400, the others
 *   cannot (their authentication failures are 401);
 * - every operation can answer 413 (a Content-Length over the route's limit) and 414 (a query string over
 *   MAX_QUERY_BYTES, create-http-app.ts), and those whose method has a body that
 *   Fastify reads (all but GET) 415 (body-parser.ts); an operation that documents one of these with a body of its own
 *   (POST /1/events: Algolia's EventsResponse) keeps it;
 * - public operations (no scheme) say so with `security: []`;
 * - parameters come path first (in the path's order), then query, then headers: generated clients take them in this
 *   order, and Nest's own order of class and method decorators differs between compilers.
 */
function refine(document: OpenAPIObject): OpenAPIObject {
  const components = document.components ?? (document.components = {});
  for (const name of CLOSED_SCHEMAS) {
    const schema = components.schemas?.[name];
    if (schema !== undefined && !('$ref' in schema)) {
      schema.additionalProperties = false;
    }
  }
  components.parameters = Object.fromEntries(AUTH_HEADERS.map((h) => [h.name, { in: 'header', ...h }]));
  components.headers = { 'X-Request-Id': REQUEST_ID };
  const authHeaders = new Set(AUTH_HEADERS.map((h) => h.name));
  const invalid = errorResponses(400);
  const tooLarge = errorResponses(413, 414);
  const bodyErrors = errorResponses(413, 414, 415);
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations as Record<string, OperationObject>)) {
      operation.parameters = operation.parameters
        ?.map((p: Parameter) =>
          'name' in p && p.in === 'header' && authHeaders.has(p.name) ? { $ref: `#/components/parameters/${p.name}` } : p,
        )
        .sort((a, b) => parameterRank(path, a) - parameterRank(path, b));
      const input = method !== 'get' || (operation.parameters ?? []).some((p) => 'in' in p && (p.in === 'path' || p.in === 'query'));
      const general = errorsIn(path, { ...(input ? invalid : {}), ...(method === 'get' ? tooLarge : bodyErrors) });
      operation.responses = sortedByStatus({
        ...operation.responses,
        ...Object.fromEntries(Object.entries(general).filter(([status]) => !ownBody(operation.responses?.[status]))),
      });
      for (const response of Object.values(operation.responses) as ResponseObject[]) {
        response.headers = { ...response.headers, 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } };
      }
      operation.security ??= [];
    }
  }
  return document;
}

const LOCATIONS = ['path', 'query', 'header'];

/** Sort key of a parameter: its location, and for a path parameter its place in the path. */
function parameterRank(path: string, p: Parameter): number {
  if (!('in' in p)) {
    return 3 * path.length;
  }
  return LOCATIONS.indexOf(p.in) * path.length + (p.in === 'path' ? path.indexOf(`{${p.name}}`) : 0);
}

/**
 * Whether an operation documents an answer with a body of its own (not ErrorBody): POST /1/events answers every
 * error as Algolia's EventsResponse, which the general answers must not replace.
 */
function ownBody(response: unknown): boolean {
  const content = (response as ResponseObject | undefined)?.content;
  const schema = content?.['application/json']?.schema as { $ref?: string } | undefined;
  return schema !== undefined && schema.$ref !== `#/components/schemas/${ERROR_SCHEMA}`;
}

function sortedByStatus(responses: Responses): Responses {
  return Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
}

/** The schema of Algolia's Analytics API errors (`GET /2/...`), `{ message, status }`. */
const ALGOLIA_ERROR_SCHEMA = 'AlgoliaError';

/** The general error answers of a path: Algolia's Analytics API answers them in Algolia's form. */
function errorsIn(path: string, responses: Record<string, ResponseObject>): Record<string, ResponseObject> {
  if (!path.startsWith('/2/')) {
    return responses;
  }
  const schema = { $ref: `#/components/schemas/${ALGOLIA_ERROR_SCHEMA}` };
  return Object.fromEntries(
    Object.entries(responses).map(([status, r]) => [status, { ...r, content: { 'application/json': { schema } } }]),
  );
}

/** An error answer as ApiErrors documents it (for the statuses no decorator can know of). */
function errorResponses(...statuses: ErrorStatus[]): Record<string, ResponseObject> {
  const schema = { $ref: `#/components/schemas/${ERROR_SCHEMA}` };
  return Object.fromEntries(
    statuses.map((status) => [status, { description: ERROR_STATUSES[status], content: { 'application/json': { schema } } }]),
  );
}

/** Serves the document at /docs-json and the UI at /docs (public). */
export function serveOpenApi(app: INestApplication): void {
  SwaggerModule.setup('docs', app, () => openApiDocument(app), { jsonDocumentUrl: 'docs-json' });
}
