import Ajv2019, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2019';
import { readFileSync } from 'node:fs';

/**
 * A contract check of one HTTP exchange against an OpenAPI 3.0 document: does the service answer as its
 * document says? `check()` returns the violations in words (empty when the exchange conforms).
 *
 * Rules:
 * - The operation is found by matching the decoded path segments against the document's path templates, among
 *   the templates that have an operation for the method; a literal segment wins over a templated one, left to
 *   right (as the router does). Parameters are not validated (a request with a bad parameter still has to be
 *   answered with a documented status).
 * - The status must be documented for the operation: exactly, else its range (`4XX`), else `default` when the
 *   document has one.
 * - Body: a response without a body must be documented without `content`, one with a body must be documented with
 *   its content type (parameters such as charset ignored; `type/*` and `*\/*` match). JSON (application/json and
 *   +json) is validated with ajv against the schema; other types only by `type: string` (the body must be text).
 * - Schemas are OpenAPI 3.0 schemas read as OpenAPI 3.0.3 says, as strict validators (Prism) read them, converted to
 *   JSON Schema 2019-09: `nullable: true` adds null to the `type` of its own schema object and does nothing else
 *   (without `type` it has no effect; an `enum`, `allOf`, `oneOf`, `anyOf` or `not` beside it still applies to null),
 *   siblings of `$ref` are ignored (`nullable` too), boolean `exclusiveMinimum`/`exclusiveMaximum` become numbers,
 *   `example`, `discriminator`, `xml`, `externalDocs` and `x-*` are dropped, `$ref`s to `#/components/schemas/...`
 *   resolve (`$ref`s elsewhere inside schemas are not supported). A keyword that is not one of the 3.0 Schema Object
 *   (`const`, `examples`, a `type` array or `null`, a number for `exclusiveMinimum`: 3.1's forms) makes the schema a
 *   violation: strict tools ignore or refuse it, so it cannot mean what it says. `strictReadingProblems` lists the
 *   places where a document says what this reading does not do (docs/decisions/0030-a-strict-contract.md).
 * - STRICT objects: a schema with `properties` and no explicit `additionalProperties` admits no other property
 *   (`unevaluatedProperties: false`, so a field the document does not describe fails). Compositions: branches of
 *   `allOf` (and of `oneOf`/`anyOf` next to own `properties` or `allOf`) are left open and the strictness is put on
 *   the schema that composes them, whose `unevaluatedProperties` sees the properties of every branch that applied;
 *   plain `oneOf`/`anyOf` alternatives are strict each. Not made strict: a composition with a free-form object
 *   branch (`type: object` without properties), and an object with explicit `additionalProperties` (a map keeps
 *   its own rule).
 * - Headers: every response header marked `required: true` must be present (names are case-insensitive); a
 *   present documented header of a simple type must match its schema (integer: digits, number, boolean, string
 *   with enum/pattern/format). `Content-Type` in `headers` is ignored, as OpenAPI says.
 * - Outside the contract (OUTSIDE_THE_CONTRACT, the only exemptions): the document's own routes and CORS preflights.
 * - A request that matches no operation (an unknown path, or a known path with an undocumented method) must be
 *   answered 404 or 405 (also 400 when the path is not valid percent-encoding), with a body matching
 *   `components.schemas.ErrorBody` when the document has one.
 * - HEAD without a HEAD operation is checked as the GET operation: its status and headers, and no body.
 *
 * Validators are compiled once per operation, status and content type (and per header) and cached.
 */

/** The request and response of one exchange. */
export interface Exchange {
  method: string;
  /** Path and query as sent (`/entities/menu?_end=5`); an absolute URL is accepted too. */
  url: string;
  status: number;
  /** Response headers (node:http's IncomingHttpHeaders fits). */
  headers: Record<string, string | string[] | number | undefined>;
  /** The body as the client parsed it: JSON when it parsed, else the text; undefined when empty. */
  body: unknown;
  /** The raw Content-Type; taken from `headers` when omitted. */
  contentType?: string;
  /** The raw body text, when known: it decides emptiness, JSON validity, and is what a text/* body is. */
  text?: string;
  /** The request headers, when known: they identify a CORS preflight (Access-Control-Request-Method). */
  requestHeaders?: Record<string, string | undefined>;
}

/**
 * The requests outside the contract, and why; nothing else is exempt. Each exemption applies only when the
 * document has no operation for the request.
 */
export const OUTSIDE_THE_CONTRACT = {
  /** The document's own routes, served by SwaggerModule.setup('docs'): the Swagger UI (/docs and its assets
   * under /docs/), the JSON document (/docs-json) and its YAML form (/docs-yaml). GET and HEAD only. */
  documentRoute(method: string, path: string): boolean {
    return (
      (method === 'GET' || method === 'HEAD') &&
      (path === '/docs' || path === '/docs-json' || path === '/docs-yaml' || path.startsWith('/docs/'))
    );
  },
  /** The browser dashboard's static files (GET /dashboard and /dashboard/<file>, see the README), and GET /,
   * its redirect to the dashboard: a page, not part of the API. GET and HEAD only. */
  dashboard(method: string, path: string): boolean {
    return (method === 'GET' || method === 'HEAD') && (path === '/' || path === '/dashboard' || path.startsWith('/dashboard/'));
  },
  /** A CORS preflight, answered by the CORS layer (when CORS_ORIGINS is set), not by an operation: OPTIONS with an
   * Access-Control-Request-Method header, or any OPTIONS when the request headers are not known. */
  corsPreflight(method: string, requestHeaders: Exchange['requestHeaders']): boolean {
    if (method !== 'OPTIONS') {
      return false;
    }
    if (!requestHeaders) {
      return true;
    }
    return Object.keys(requestHeaders).some((name) => name.toLowerCase() === 'access-control-request-method');
  },
};

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type SchemaObject = { [key: string]: Json };

interface MediaTypeObject {
  schema?: SchemaObject;
}
interface HeaderObject {
  $ref?: string;
  required?: boolean;
  schema?: SchemaObject;
}
interface ResponseObject {
  $ref?: string;
  content?: Record<string, MediaTypeObject>;
  headers?: Record<string, HeaderObject>;
}
interface OperationObject {
  responses?: Record<string, ResponseObject>;
}
/** The parts of an OpenAPI 3.0 document the check reads. */
export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, unknown>>;
  components?: {
    schemas?: Record<string, SchemaObject>;
    responses?: Record<string, ResponseObject>;
    headers?: Record<string, HeaderObject>;
    [kind: string]: unknown;
  };
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const SCHEMA_PREFIX = '#/components/schemas/';
const STRICT_ID = 'urn:openapi-contract:strict';
const OPEN_ID = 'urn:openapi-contract:open';
/** Keywords of OpenAPI 3.0 schemas that are not JSON Schema (nullable is converted, these are dropped). */
const DROPPED = new Set(['nullable', 'example', 'discriminator', 'xml', 'externalDocs']);
/** The keywords of an OpenAPI 3.0 Schema Object, besides `$ref` and `x-*` extensions. */
const SCHEMA_KEYWORDS = new Set([
  ...['title', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'maxLength', 'minLength'],
  ...['pattern', 'maxItems', 'minItems', 'uniqueItems', 'maxProperties', 'minProperties', 'required', 'enum', 'type'],
  ...['allOf', 'oneOf', 'anyOf', 'not', 'items', 'properties', 'additionalProperties', 'description', 'format', 'default'],
  ...['nullable', 'discriminator', 'readOnly', 'writeOnly', 'xml', 'externalDocs', 'example', 'deprecated'],
]);
/** The values of `type` in OpenAPI 3.0 (no `null`, no arrays). */
const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object']);
/** The keywords that apply to null too, whatever `nullable` says beside them. */
const APPLICATORS = ['allOf', 'oneOf', 'anyOf', 'not'];
/** At most this many violations per exchange (a list of 1,000 wrong items would say the same thing 1,000 times). */
const MAX_VIOLATIONS = 20;

/** A path template compiled to per-segment matchers; rank orders literal (2) over partly (1) over fully templated (0). */
interface Route {
  template: string;
  segments: Array<string | RegExp>;
  rank: number[];
  item: Record<string, unknown>;
}

interface Compiled {
  validate?: ValidateFunction;
  error?: string;
}

export class OpenApiContract {
  private readonly routes: Route[];
  private readonly ajv: Ajv2019;
  private readonly validators = new Map<string, Compiled>();

  constructor(private readonly doc: OpenApiDocument) {
    if (!/^3\.0\./.test(String(doc.openapi))) {
      throw new Error(`an OpenAPI 3.0 document is expected, not ${String(doc.openapi)}`);
    }
    this.routes = Object.entries(doc.paths ?? {}).map(([template, item]) => compileRoute(template, this.resolve(item)));
    // ajv's strictSchema (on by default) refuses unknown keywords, and convert() refuses what is not OpenAPI 3.0. The
    // other strict options judge how a schema is written, not what it admits (strictTypes wants `type: object` beside
    // the unevaluatedProperties this puts on compositions), so they stay off: validation is the same either way.
    this.ajv = new Ajv2019({
      allErrors: true,
      verbose: true,
      strictTypes: false,
      strictTuples: false,
      strictRequired: false,
      allowUnionTypes: true,
    });
    addFormats(this.ajv);
    const schemas = doc.components?.schemas ?? {};
    const defs = (open: boolean) => Object.fromEntries(Object.entries(schemas).map(([name, s]) => [name, this.convert(s, open)]));
    this.ajv.addSchema({ $id: STRICT_ID, $defs: defs(false) });
    this.ajv.addSchema({ $id: OPEN_ID, $defs: defs(true) });
  }

  static fromFile(file: string): OpenApiContract {
    return new OpenApiContract(JSON.parse(readFileSync(file, 'utf8')) as OpenApiDocument);
  }

  /** `METHOD /template` of the operation the request reaches, or undefined when none does. */
  operationOf(method: string, url: string): string | undefined {
    const route = this.route(method.toUpperCase(), segmentsOf(pathOf(url)));
    return route && `${method.toUpperCase()} ${route.template}`;
  }

  /** The violations of the contract by one exchange, in words; empty when it conforms. */
  check(exchange: Exchange): string[] {
    const method = exchange.method.toUpperCase();
    const path = pathOf(exchange.url);
    const segments = segmentsOf(path);
    // HEAD is GET without the body (Fastify answers it for every GET route): GET's statuses and headers apply.
    const asGet = method === 'HEAD' && !this.hasOperation('head', segments);
    const route = this.route(asGet ? 'GET' : method, segments);
    if (!route) {
      if (OUTSIDE_THE_CONTRACT.documentRoute(method, path) || OUTSIDE_THE_CONTRACT.dashboard(method, path)) {
        return [];
      }
      if (OUTSIDE_THE_CONTRACT.corsPreflight(method, exchange.requestHeaders) && !this.hasOperation('options', segments)) {
        return [];
      }
      return this.checkUnmatched(exchange);
    }
    const operation = this.resolve(route.item[asGet ? 'get' : method.toLowerCase()]) as OperationObject;
    const where = `${method} ${route.template}`;
    const responses = operation.responses ?? {};
    const statusKey = [String(exchange.status), `${String(exchange.status)[0]}XX`, `${String(exchange.status)[0]}xx`, 'default'].find(
      (key) => key in responses,
    );
    if (statusKey === undefined) {
      return [`status ${exchange.status} is not documented for ${where} (documented: ${Object.keys(responses).join(', ') || 'none'})`];
    }
    const response = this.resolve(responses[statusKey]) as ResponseObject;
    const key = `${where} ${statusKey}`;
    const headers = this.checkHeaders(key, response, exchange.headers);
    if (asGet) {
      return cap(exchange.text ? [...headers, 'HEAD answered with a body'] : headers);
    }
    return cap([...headers, ...this.checkBody(key, response.content, exchange)]);
  }

  /**
   * A request no operation takes: 404 or 405 (or 400 when its path is not valid percent-encoding, which no router
   * can match), with the document's error body when it has one.
   */
  private checkUnmatched(exchange: Exchange): string[] {
    const path = pathOf(exchange.url);
    const what = `${exchange.method.toUpperCase()} ${path} matches no operation of the document`;
    const allowed = decodable(path) ? [404, 405] : [400, 404, 405];
    if (!allowed.includes(exchange.status)) {
      return [`${what}: only ${allowed.join(', ')} may answer it, not ${exchange.status}`];
    }
    if (!this.doc.components?.schemas?.ErrorBody) {
      return [];
    }
    const content = { 'application/json': { schema: { $ref: `${SCHEMA_PREFIX}ErrorBody` } } };
    return cap(this.checkBody('unmatched ErrorBody', content, exchange).map((v) => `${what} (answered ${exchange.status}): ${v}`));
  }

  private checkHeaders(key: string, response: ResponseObject, headers: Exchange['headers']): string[] {
    const violations: string[] = [];
    const present = new Map(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
    for (const [name, ref] of Object.entries(response.headers ?? {})) {
      if (name.toLowerCase() === 'content-type') {
        continue;
      }
      const header = this.resolve(ref) as HeaderObject;
      const value = present.get(name.toLowerCase());
      if (value === undefined) {
        if (header.required === true) {
          violations.push(`header ${name}: required by the document, missing from the response`);
        }
        continue;
      }
      const schema = header.schema && (this.resolve(header.schema) as SchemaObject);
      const text = Array.isArray(value) ? value.join(', ') : String(value);
      const typed = schema && headerValue(schema, text);
      if (!schema || typed === undefined) {
        continue;
      }
      if (typed instanceof Error) {
        violations.push(`header ${name}: ${JSON.stringify(text)} ${typed.message}`);
        continue;
      }
      const compiled = this.compiled(`${key} header ${name}`, header.schema as SchemaObject);
      if (compiled.error) {
        violations.push(`header ${name}: ${compiled.error}`);
      } else if (!compiled.validate!(typed.value)) {
        violations.push(...describeErrors(compiled.validate!.errors ?? [], `header ${name} ${JSON.stringify(text)}`));
      }
    }
    return violations;
  }

  private checkBody(key: string, content: Record<string, MediaTypeObject> | undefined, exchange: Exchange): string[] {
    const documented = Object.keys(content ?? {});
    const hasBody = exchange.text !== undefined ? exchange.text.length > 0 : exchange.body !== undefined && exchange.body !== '';
    const rawType = exchange.contentType ?? headerText(exchange.headers, 'content-type');
    const type = mediaTypeOf(rawType);
    if (!hasBody) {
      return documented.length ? [`body: the document describes one (${documented.join(', ')}), the response has none`] : [];
    }
    if (!documented.length) {
      return [`body: the response has one (${rawType ?? 'no Content-Type'}), the document describes none for this status`];
    }
    if (!type) {
      return [`body: the response has one but no Content-Type (documented: ${documented.join(', ')})`];
    }
    const [major] = type.split('/');
    const mediaKey =
      documented.find((m) => mediaTypeOf(m) === type) ??
      documented.find((m) => mediaTypeOf(m) === `${major}/*`) ??
      documented.find((m) => m === '*/*');
    if (mediaKey === undefined) {
      return [`body: content type ${type} is not documented (documented: ${documented.join(', ')})`];
    }
    const schema = content![mediaKey].schema;
    if (!schema) {
      return [];
    }
    if (isJson(type)) {
      let instance = exchange.body;
      if (exchange.text !== undefined) {
        try {
          instance = JSON.parse(exchange.text);
        } catch {
          return [`body: Content-Type ${type} but the body is not valid JSON`];
        }
      }
      const compiled = this.compiled(`${key} ${mediaKey}`, schema);
      if (compiled.error) {
        return [`body: ${compiled.error}`];
      }
      return compiled.validate!(instance) ? [] : describeErrors(compiled.validate!.errors ?? []);
    }
    const resolved = this.resolve(schema) as SchemaObject;
    const instance = exchange.text ?? exchange.body;
    if (resolved.type === 'string' && typeof instance !== 'string') {
      return [`body: must be text (${type}, type string), got ${typeOf(instance)}`];
    }
    return [];
  }

  /** The validator of a response schema, compiled once per key. */
  private compiled(key: string, schema: SchemaObject): Compiled {
    let compiled = this.validators.get(key);
    if (!compiled) {
      try {
        compiled = { validate: this.ajv.compile(this.convert(schema, false)) };
      } catch (err) {
        compiled = { error: `the document's schema cannot be compiled: ${(err as Error).message}` };
      }
      this.validators.set(key, compiled);
    }
    return compiled;
  }

  /** The route the request reaches: among the templates with an operation for the method, the most literal one. */
  private route(method: string, segments: string[]): Route | undefined {
    let best: Route | undefined;
    for (const route of this.routes) {
      if (!(method.toLowerCase() in route.item) || !METHODS.includes(method.toLowerCase()) || !matches(route, segments)) {
        continue;
      }
      if (!best || compareRank(route.rank, best.rank) > 0) {
        best = route;
      }
    }
    return best;
  }

  private hasOperation(method: string, segments: string[]): boolean {
    return this.routes.some((route) => method in route.item && matches(route, segments));
  }

  /** Follows local `$ref`s (`#/components/...`) to the object they name. */
  private resolve(value: unknown): Record<string, unknown> {
    let current = value as Record<string, unknown>;
    for (let hops = 0; current && typeof current.$ref === 'string'; hops++) {
      const ref = current.$ref;
      if (!ref.startsWith('#/') || hops > 32) {
        throw new Error(`unsupported or circular $ref ${ref}`);
      }
      current = ref
        .slice(2)
        .split('/')
        .map(unescapeToken)
        .reduce<unknown>((node, token) => (node as Record<string, unknown> | undefined)?.[token], this.doc) as Record<string, unknown>;
      if (current === undefined) {
        throw new Error(`$ref ${ref} names nothing in the document`);
      }
    }
    return current ?? {};
  }

  /**
   * An OpenAPI 3.0 schema as JSON Schema 2019-09. `open`: the schema is a branch of a composition, whose own
   * properties the composing schema accounts for (no strictness added at its top level).
   */
  private convert(schema: SchemaObject, open: boolean): SchemaObject {
    if (typeof schema !== 'object' || schema === null) {
      return schema;
    }
    if (typeof schema.$ref === 'string') {
      if (!schema.$ref.startsWith(SCHEMA_PREFIX)) {
        throw new Error(`$ref ${schema.$ref} inside a schema is not supported`);
      }
      // The name as the document escaped it (JSON pointer, URI), escaped again for the $defs it is kept in.
      const name = unescapeToken(schema.$ref.slice(SCHEMA_PREFIX.length));
      const ref: SchemaObject = {
        $ref: `${open ? OPEN_ID : STRICT_ID}#/$defs/${encodeURIComponent(escapeToken(name))}`,
      };
      // Siblings of $ref are ignored in OpenAPI 3.0, nullable too.
      return ref;
    }
    const unknown = Object.keys(schema).find((keyword) => !SCHEMA_KEYWORDS.has(keyword) && !keyword.startsWith('x-'));
    if (unknown !== undefined) {
      throw new Error(`${unknown} is not a keyword of an OpenAPI 3.0 schema`);
    }
    if ('type' in schema && !TYPES.has(schema.type as string)) {
      throw new Error(`type ${JSON.stringify(schema.type)} is not an OpenAPI 3.0 type`);
    }
    const ownObject = 'properties' in schema || 'allOf' in schema;
    const out: SchemaObject = {};
    for (const [keyword, value] of Object.entries(schema)) {
      if (DROPPED.has(keyword) || keyword.startsWith('x-')) {
        continue;
      }
      const sub = value as SchemaObject;
      switch (keyword) {
        case 'properties':
          out.properties = Object.fromEntries(Object.entries(sub).map(([name, s]) => [name, this.convert(s as SchemaObject, false)]));
          break;
        case 'items':
          out.items = this.convert(sub, false);
          break;
        case 'additionalProperties':
          out.additionalProperties = typeof value === 'boolean' ? value : this.convert(sub, false);
          break;
        case 'not':
          out.not = this.convert(sub, true);
          break;
        case 'allOf':
          out.allOf = (value as SchemaObject[]).map((s) => this.convert(s, true));
          break;
        case 'oneOf':
        case 'anyOf':
          out[keyword] = (value as SchemaObject[]).map((s) => this.convert(s, open || ownObject));
          break;
        case 'exclusiveMinimum':
        case 'exclusiveMaximum':
          if (typeof value !== 'boolean') {
            throw new Error(`${keyword} is a boolean in OpenAPI 3.0, not ${JSON.stringify(value)}`);
          }
          if (value === true) {
            out[keyword] = schema[keyword === 'exclusiveMinimum' ? 'minimum' : 'maximum'];
          }
          break;
        case 'minimum':
        case 'maximum':
          if (schema[keyword === 'minimum' ? 'exclusiveMinimum' : 'exclusiveMaximum'] !== true) {
            out[keyword] = value;
          }
          break;
        case 'format':
          if (typeof value === 'string' && !this.ajv.formats[value]) {
            this.ajv.addFormat(value, true);
          }
          out.format = value;
          break;
        default:
          out[keyword] = value;
      }
    }
    if (!open && !('additionalProperties' in schema) && !('unevaluatedProperties' in schema)) {
      const branches = [...asArray(schema.allOf), ...(ownObject ? [...asArray(schema.oneOf), ...asArray(schema.anyOf)] : [])];
      const shape = branches.map((b) => this.shape(b, new Set()));
      if (('properties' in schema || shape.some((s) => s.describes)) && !shape.some((s) => s.freeForm)) {
        out.unevaluatedProperties = false;
      }
    }
    // OpenAPI 3.0.3: null joins the type of this schema object, nothing more (the enum and compositions still apply).
    if (schema.nullable === true && typeof out.type === 'string') {
      out.type = [out.type, 'null'];
    }
    return out;
  }

  /** Whether an open branch (followed through $refs and its own branches) describes properties or is a free-form object. */
  private shape(schema: Json, seen: Set<string>): { describes: boolean; freeForm: boolean } {
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
      return { describes: false, freeForm: false };
    }
    if (typeof schema.$ref === 'string') {
      if (seen.has(schema.$ref)) {
        return { describes: false, freeForm: false };
      }
      seen.add(schema.$ref);
      return this.shape(this.resolve(schema) as SchemaObject, seen);
    }
    const branches = [...asArray(schema.allOf), ...asArray(schema.oneOf), ...asArray(schema.anyOf)].map((b) => this.shape(b, seen));
    return {
      describes: 'properties' in schema || branches.some((b) => b.describes),
      freeForm:
        (schema.type === 'object' && !('properties' in schema) && !('additionalProperties' in schema) && branches.length === 0) ||
        branches.some((b) => b.freeForm),
    };
  }
}

/**
 * Where the document's schemas say something that strict OpenAPI 3.0.3 tools read otherwise than its words (and than
 * lenient tools): each place as a JSON pointer with why. Empty for a document every reading agrees on.
 * - `nullable: true` without `type` in the same schema object: no effect;
 * - `nullable: true` next to `$ref` (ignored, as every sibling of `$ref`), `allOf`, `oneOf`, `anyOf` or `not` (they
 *   still apply to null, and a `$ref`'d object rejects it), or next to an `enum` without null (the enum rejects it).
 *   A nullable reference is `oneOf: [{ $ref }, { type: object, nullable: true, enum: [null] }]`;
 * - any sibling of `$ref` (ignored);
 * - a keyword that is not one of the 3.0 Schema Object, a `type` that is not one of its six, a number for
 *   `exclusiveMinimum`/`exclusiveMaximum`, a boolean schema (3.1's forms, ignored or refused by 3.0 tools).
 */
export function strictReadingProblems(doc: OpenApiDocument): string[] {
  const problems: string[] = [];
  const visit = (schema: unknown, at: string): void => {
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
      problems.push(`${at}: ${JSON.stringify(schema)} is not a schema object (OpenAPI 3.0 has no boolean schemas)`);
      return;
    }
    const s = schema as SchemaObject;
    const keywords = Object.keys(s).filter((k) => !k.startsWith('x-'));
    if ('$ref' in s) {
      const siblings = keywords.filter((k) => k !== '$ref');
      if (siblings.length) {
        problems.push(`${at}: ${siblings.join(', ')} beside $ref, which OpenAPI 3.0 ignores`);
      }
      return;
    }
    for (const k of keywords.filter((k) => !SCHEMA_KEYWORDS.has(k))) {
      problems.push(`${at}: ${k} is not a keyword of an OpenAPI 3.0 schema`);
    }
    if ('type' in s && !TYPES.has(s.type as string)) {
      problems.push(`${at}: type ${JSON.stringify(s.type)} is not an OpenAPI 3.0 type`);
    }
    for (const k of ['exclusiveMinimum', 'exclusiveMaximum'].filter((k) => k in s && typeof s[k] !== 'boolean')) {
      problems.push(`${at}: ${k} is a boolean in OpenAPI 3.0, not ${JSON.stringify(s[k])}`);
    }
    if (s.nullable === true) {
      const beside = APPLICATORS.filter((k) => k in s);
      if (!('type' in s)) {
        problems.push(`${at}: nullable without type in the same schema object has no effect (OpenAPI 3.0.3)`);
      }
      if (beside.length) {
        problems.push(`${at}: nullable beside ${beside.join(', ')}, which still apply to null (OpenAPI 3.0.3)`);
      }
      if (Array.isArray(s.enum) && !s.enum.includes(null)) {
        problems.push(`${at}: nullable with an enum without null, which rejects null`);
      }
    }
    for (const [keyword, sub] of Object.entries(s)) {
      if (keyword === 'properties' && typeof sub === 'object' && sub !== null) {
        for (const [name, property] of Object.entries(sub)) {
          visit(property, `${at}/properties/${escapeToken(name)}`);
        }
      } else if (keyword === 'items' || keyword === 'not' || (keyword === 'additionalProperties' && typeof sub !== 'boolean')) {
        visit(sub, `${at}/${keyword}`);
      } else if (APPLICATORS.includes(keyword)) {
        asArray(sub).forEach((branch, i) => visit(branch, `${at}/${keyword}/${i}`));
      }
    }
  };
  // Every schema: the components' and each `schema` of a parameter, header or media type (examples are values).
  const find = (node: unknown, at: string): void => {
    if (typeof node !== 'object' || node === null) {
      return;
    }
    for (const [key, value] of Object.entries(node)) {
      const here = `${at}/${escapeToken(key)}`;
      if (key === 'example' || key === 'examples' || here === '#/components/schemas') {
        continue;
      }
      if (key === 'schema' && !Array.isArray(node)) {
        visit(value, here);
      } else {
        find(value, here);
      }
    }
  };
  for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) {
    visit(schema, `#/components/schemas/${escapeToken(name)}`);
  }
  find(doc, '#');
  return problems;
}

function escapeToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** A JSON pointer token of a URI fragment, unescaped. */
function unescapeToken(token: string): string {
  let decoded = token;
  try {
    decoded = decodeURIComponent(token);
  } catch {
    /* kept as written */
  }
  return decoded.replace(/~1/g, '/').replace(/~0/g, '~');
}

function asArray(value: Json | undefined): Json[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

/** The path of a URL (query and fragment cut off). */
function pathOf(url: string): string {
  const path = /^[a-z]+:\/\//i.test(url) ? new URL(url).pathname : url;
  return path.split(/[?#]/, 1)[0];
}

function decodable(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

/** The path's segments, each percent-decoded (kept as sent when the encoding is malformed). */
function segmentsOf(path: string): string[] {
  return path.split('/').map((segment) => {
    try {
      return decodeURIComponent(segment);
    } catch {
      return segment;
    }
  });
}

function compileRoute(template: string, item: Record<string, unknown>): Route {
  const segments = template.split('/').map((segment) => {
    if (!segment.includes('{')) {
      return segment;
    }
    const pattern = segment
      .split(/(\{[^}]+\})/)
      .map((part) => (/^\{[^}]+\}$/.test(part) ? '(.+)' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    return new RegExp(`^${pattern.join('')}$`, 's');
  });
  const rank = segments.map((s, i) => (typeof s === 'string' ? 2 : /^\{[^}]+\}$/.test(template.split('/')[i]) ? 0 : 1));
  return { template, segments, rank, item };
}

function matches(route: Route, segments: string[]): boolean {
  return (
    route.segments.length === segments.length &&
    route.segments.every((s, i) => (typeof s === 'string' ? s === segments[i] : s.test(segments[i])))
  );
}

function compareRank(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] !== b[i]) {
      return a[i] - b[i];
    }
  }
  return 0;
}

function headerText(headers: Exchange['headers'], name: string): string | undefined {
  const entry = Object.entries(headers).find(([key]) => key.toLowerCase() === name);
  const value = entry?.[1];
  return value === undefined ? undefined : Array.isArray(value) ? value.join(', ') : String(value);
}

/** `type/subtype` in lower case, parameters cut off. */
function mediaTypeOf(contentType: string | undefined): string | undefined {
  const type = contentType?.split(';')[0].trim().toLowerCase();
  return type || undefined;
}

function isJson(type: string): boolean {
  return type === 'application/json' || type.endsWith('+json');
}

/** A header's text as the value its simple schema describes; an Error when it cannot be; undefined: not simple. */
function headerValue(schema: SchemaObject, text: string): { value: unknown } | Error | undefined {
  switch (schema.type) {
    case 'integer':
      return /^-?\d+$/.test(text.trim()) ? { value: Number(text) } : new Error('is not an integer (digits)');
    case 'number':
      return text.trim() !== '' && Number.isFinite(Number(text)) ? { value: Number(text) } : new Error('is not a number');
    case 'boolean':
      return text === 'true' || text === 'false' ? { value: text === 'true' } : new Error('is not a boolean (true or false)');
    case 'string':
      return { value: text };
    default:
      return undefined;
  }
}

function typeOf(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

/** ajv's errors in words, each naming the place in the body (`body.items[0].id`). */
function describeErrors(errors: ErrorObject[], root = 'body'): string[] {
  const seen = new Set<string>();
  for (const error of errors) {
    const at = placeOf(root, error.instancePath);
    const params = error.params as Record<string, unknown>;
    let text: string;
    if (error.keyword === 'unevaluatedProperties' || error.keyword === 'additionalProperties') {
      const name = String(params.unevaluatedProperty ?? params.additionalProperty);
      text = `${at}${propertyPlace(name)}: a field the document does not describe`;
    } else if (error.keyword === 'required') {
      text = `${at}${propertyPlace(String(params.missingProperty))}: a required field is missing`;
    } else if (error.keyword === 'type') {
      text = `${at}: ${error.message ?? 'wrong type'}, got ${typeOf(error.data)}${error.data === null ? ' (not nullable)' : ''}`;
    } else {
      text = `${at}: ${error.message ?? error.keyword}${error.keyword === 'enum' ? ` ${JSON.stringify(params.allowedValues)}` : ''}`;
    }
    seen.add(text);
  }
  return [...seen];
}

function placeOf(root: string, instancePath: string): string {
  if (!instancePath) {
    return root;
  }
  return `${root}${instancePath
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((token) => (/^\d+$/.test(token) ? `[${token}]` : propertyPlace(token)))
    .join('')}`;
}

function propertyPlace(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? `.${name}` : `[${JSON.stringify(name)}]`;
}

function cap(violations: string[]): string[] {
  return violations.length <= MAX_VIOLATIONS
    ? violations
    : [...violations.slice(0, MAX_VIOLATIONS), `... and ${violations.length - MAX_VIOLATIONS} more`];
}

/** The formats OpenAPI 3.0 names that carry a checkable shape; other formats are annotations. */
function addFormats(ajv: Ajv2019): void {
  const dateTime = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})$/;
  ajv.addFormat('date-time', { type: 'string', validate: (s: string) => dateTime.test(s) && !Number.isNaN(Date.parse(s)) });
  ajv.addFormat('date', { type: 'string', validate: (s: string) => /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(s)) });
  ajv.addFormat('uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
  ajv.addFormat('email', /^[^\s@]+@[^\s@]+$/);
  ajv.addFormat('uri', { type: 'string', validate: (s: string) => URL.canParse(s) });
  ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31 });
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) });
  for (const annotation of ['float', 'double', 'byte', 'binary', 'password']) {
    ajv.addFormat(annotation, true);
  }
}
