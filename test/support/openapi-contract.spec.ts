import { OpenApiContract, strictReadingProblems, type Exchange, type OpenApiDocument } from './openapi-contract';

const json = { 'content-type': 'application/json; charset=utf-8', 'x-request-id': 'r-1' };
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const body = (schema: object) => ({ content: { 'application/json': { schema } } });

/** A small document in the shape the service's will have: components, $refs, headers, an error body. */
const DOCUMENT: OpenApiDocument = {
  openapi: '3.0.0',
  paths: {
    '/items': {
      get: {
        responses: {
          '200': {
            description: 'a page',
            headers: {
              'X-Request-Id': { $ref: '#/components/headers/RequestId' },
              'X-Total-Count': { required: true, schema: { type: 'integer' } },
            },
            ...body({ type: 'array', items: ref('Item') }),
          },
          '400': { $ref: '#/components/responses/Error' },
        },
      },
      post: {
        responses: {
          '201': { description: 'created', headers: { 'X-Request-Id': { $ref: '#/components/headers/RequestId' } }, ...body(ref('Item')) },
          '429': {
            description: 'slow down',
            headers: { 'Retry-After': { required: true, schema: { type: 'integer', minimum: 1 } } },
            ...body(ref('ErrorBody')),
          },
        },
      },
    },
    '/items/{id}': {
      get: { responses: { '200': { description: 'one', ...body(ref('Item')) }, '404': { $ref: '#/components/responses/Error' } } },
      delete: { responses: { '204': { description: 'gone' } } },
    },
    '/items/special': {
      get: { responses: { '200': { description: 'literal', ...body({ type: 'object', properties: { special: { type: 'boolean' } } }) } } },
    },
    '/files/{name}.json': {
      get: { responses: { '200': { description: 'a file', ...body({ type: 'object', properties: { name: { type: 'string' } } }) } } },
    },
    '/counts': {
      get: {
        responses: {
          '200': { description: 'a map', ...body({ type: 'object', properties: {}, additionalProperties: { type: 'integer' } }) },
        },
      },
    },
    '/composed': {
      get: {
        responses: {
          '200': { description: 'allOf', ...body({ allOf: [ref('Item'), { type: 'object', properties: { score: { type: 'number' } } }] }) },
          '202': { description: 'oneOf', ...body({ oneOf: [ref('Cat'), ref('Dog')] }) },
          '203': { description: 'free-form branch', ...body({ allOf: [ref('Item'), { type: 'object' }] }) },
        },
      },
    },
    '/metrics': {
      get: { responses: { '200': { description: 'text', content: { 'text/plain': { schema: { type: 'string' } } } } } },
    },
  },
  components: {
    headers: { RequestId: { required: true, schema: { type: 'string' } } },
    responses: { Error: { description: 'an error', ...body(ref('ErrorBody')) } } as never,
    schemas: {
      Item: {
        type: 'object',
        required: ['id', 'name'],
        properties: {
          id: { type: 'string', format: 'uuid', example: '00000000-0000-4000-8000-000000000000' },
          name: { type: 'string' },
          note: { type: 'string', nullable: true },
          count: { type: 'integer', minimum: 0, exclusiveMinimum: true },
          // A nullable reference as OpenAPI 3.0.3 has it: the referenced schema, or null (a typed null branch).
          editor: { oneOf: [ref('Owner'), { type: 'object', nullable: true, enum: [null] }] },
          phase: { type: 'string', nullable: true, enum: ['draft', null] },
          // Read strictly (3.0.3), none of these admits null: nullable adds null to the type of its own object only,
          // the composition, the $ref or the enum next to it still applies to null.
          owner: { allOf: [ref('Owner')], nullable: true },
          // The form @nestjs/swagger writes for a nullable class-typed property.
          reviewer: { type: 'object', allOf: [ref('Owner')], nullable: true },
          approver: { $ref: '#/components/schemas/Owner', nullable: true } as never,
          state: { type: 'string', nullable: true, enum: ['open', 'closed'] },
          createdAt: { type: 'string', format: 'date-time' },
          data: { type: 'object', additionalProperties: true },
        },
      },
      Owner: { type: 'object', required: ['login'], properties: { login: { type: 'string' } } },
      Cat: { type: 'object', required: ['meows'], properties: { meows: { type: 'boolean' } } },
      Dog: { type: 'object', required: ['barks'], properties: { barks: { type: 'boolean' } } },
      ErrorBody: {
        type: 'object',
        required: ['statusCode', 'error', 'message'],
        properties: {
          statusCode: { type: 'integer' },
          error: { type: 'string' },
          message: { type: 'string' },
          x: { type: 'string', 'x-internal': true },
        },
      },
    },
  },
};

const ITEM = { id: '3f2b8c1e-0000-4000-8000-000000000001', name: 'first' };
const contract = new OpenApiContract(DOCUMENT);
const check = (exchange: Partial<Exchange>) =>
  contract.check({ method: 'GET', url: '/items/3f2b', status: 200, headers: json, body: undefined, ...exchange });
const list = (items: unknown[], headers: Exchange['headers'] = { ...json, 'x-total-count': String(items.length) }) =>
  check({ url: '/items?_end=10', headers, body: items });

describe('OpenApiContract', () => {
  describe('passes', () => {
    it('a conforming exchange, with its required headers', () => {
      expect(list([ITEM, { ...ITEM, note: 'n', count: 2, owner: { login: 'a' }, createdAt: '2024-01-02T03:04:05.678Z' }])).toEqual([]);
      expect(check({ body: ITEM })).toEqual([]);
      expect(check({ method: 'POST', url: '/items', status: 201, body: ITEM })).toEqual([]);
    });

    it('null where the schema admits it read strictly (OpenAPI 3.0.3): nullable with type, a null branch, null in the enum', () => {
      expect(check({ body: { ...ITEM, note: null, editor: null, phase: null } })).toEqual([]);
      expect(check({ body: { ...ITEM, editor: { login: 'a' }, phase: 'draft', reviewer: { login: 'a' }, state: 'open' } })).toEqual([]);
      expect(check({ body: { ...ITEM, reviewer: { login: 'a', extra: 1 } } })).toEqual([
        'body.reviewer.extra: a field the document does not describe',
      ]);
    });

    it('path templates, literal segments first, decoded segments, partly templated segments', () => {
      expect(check({ url: '/items/special', body: { special: true } })).toEqual([]);
      expect(check({ url: '/items/special', body: ITEM })).toEqual([
        'body.id: a field the document does not describe',
        'body.name: a field the document does not describe',
      ]);
      expect(check({ url: '/items/with%20space?x=1', body: ITEM })).toEqual([]);
      expect(contract.operationOf('GET', '/items/special')).toBe('GET /items/special');
      expect(contract.operationOf('GET', '/items/spec%69al')).toBe('GET /items/special');
      expect(contract.operationOf('GET', 'http://127.0.0.1:3000/items/7')).toBe('GET /items/{id}');
      expect(contract.operationOf('DELETE', '/items/special')).toBe('DELETE /items/{id}');
      expect(contract.operationOf('GET', '/items/')).toBeUndefined();
      expect(check({ url: '/files/a.json', body: { name: 'a' } })).toEqual([]);
    });

    it('a map (explicit additionalProperties) keeps its own rule', () => {
      expect(check({ url: '/counts', body: { de: 1, en: 2 } })).toEqual([]);
      expect(check({ url: '/counts', body: { de: 'one' } })).toEqual(['body.de: must be integer, got string']);
      expect(check({ url: '/items/1', body: { ...ITEM, data: { anything: [1] } } })).toEqual([]);
    });

    it("the document's own routes and CORS preflights", () => {
      const html = { 'content-type': 'text/html' };
      expect(check({ url: '/docs', headers: html, body: '<html>' })).toEqual([]);
      expect(check({ url: '/docs/swagger-ui.css', headers: { 'content-type': 'text/css' }, body: 'x' })).toEqual([]);
      expect(check({ url: '/docs-json', body: DOCUMENT })).toEqual([]);
      expect(
        check({ method: 'OPTIONS', url: '/items', status: 204, headers: {}, requestHeaders: { 'Access-Control-Request-Method': 'GET' } }),
      ).toEqual([]);
      expect(check({ method: 'OPTIONS', url: '/items', status: 204, headers: {} })).toEqual([]);
      // Narrow: not another method on /docs, not /docs-json/..., not an OPTIONS that is no preflight.
      expect(check({ method: 'POST', url: '/docs', status: 200, body: {} })).toHaveLength(1);
      expect(check({ url: '/docs-json/x', body: {} })).toHaveLength(1);
      expect(check({ method: 'OPTIONS', url: '/items', status: 204, headers: {}, requestHeaders: {} })).toHaveLength(1);
    });

    it('an unknown route or undocumented method answered 404/405 with the error body', () => {
      const error = { statusCode: 404, error: 'Not Found', message: 'Cannot GET /nope' };
      expect(check({ url: '/nope', status: 404, body: error })).toEqual([]);
      expect(check({ method: 'PATCH', url: '/items', status: 405, body: { ...error, statusCode: 405 } })).toEqual([]);
      expect(check({ url: '/nope', status: 404, body: { ...error, stack: 'at x.js:1' } })).toEqual([
        'GET /nope matches no operation of the document (answered 404): body.stack: a field the document does not describe',
      ]);
      const withoutErrorBody = new OpenApiContract({ ...DOCUMENT, components: { schemas: {} } });
      expect(withoutErrorBody.check({ method: 'GET', url: '/nope', status: 404, headers: {}, body: 'whatever' })).toEqual([]);
    });

    it('a path that is not valid percent-encoding answered 400 with the error body (no router can match it)', () => {
      const error = { statusCode: 400, error: 'Bad Request', message: 'Malformed URL' };
      expect(check({ url: '/nope/%zz', status: 400, body: error })).toEqual([]);
      expect(check({ url: '/nope/zz', status: 400, body: error })).toEqual([
        'GET /nope/zz matches no operation of the document: only 404, 405 may answer it, not 400',
      ]);
    });

    it('HEAD as the GET operation: its status and required headers, without a body', () => {
      expect(check({ method: 'HEAD', url: '/items?_end=1', headers: { ...json, 'x-total-count': '0' } })).toEqual([]);
      expect(check({ method: 'HEAD', url: '/items?_end=1', headers: json })).toEqual([
        'header X-Total-Count: required by the document, missing from the response',
      ]);
      expect(check({ method: 'HEAD', url: '/items/1', body: ITEM, text: JSON.stringify(ITEM) })).toEqual(['HEAD answered with a body']);
      expect(check({ method: 'HEAD', url: '/items/1', status: 418 })).toHaveLength(1);
    });

    it('compositions: allOf branches are open, the composed object is strict; oneOf alternatives are strict each', () => {
      expect(check({ url: '/composed', body: { ...ITEM, score: 1 } })).toEqual([]);
      expect(check({ url: '/composed', body: { ...ITEM, score: 1, extra: 1 } })).toEqual([
        'body.extra: a field the document does not describe',
      ]);
      expect(check({ url: '/composed', status: 202, body: { meows: true } })).toEqual([]);
      expect(check({ url: '/composed', status: 202, body: { meows: true, barks: true } })).not.toEqual([]);
      // A free-form object branch: no strictness can be sound, so none is added.
      expect(check({ url: '/composed', status: 203, body: { ...ITEM, anything: 1 } })).toEqual([]);
    });

    it('text bodies by content type and type string', () => {
      expect(check({ url: '/metrics', headers: { 'content-type': 'text/plain; version=0.0.4' }, body: 'up 1', text: 'up 1' })).toEqual([]);
      expect(check({ url: '/metrics', headers: { 'content-type': 'text/plain' }, body: 42 })).toEqual([
        'body: must be text (text/plain, type string), got number',
      ]);
      expect(check({ url: '/metrics', headers: { 'content-type': 'text/html' }, body: 'x' })).toEqual([
        'body: content type text/html is not documented (documented: text/plain)',
      ]);
    });
  });

  describe('fails', () => {
    it('on an undocumented status', () => {
      expect(check({ status: 500, body: { statusCode: 500, error: 'x', message: 'y' } })).toEqual([
        'status 500 is not documented for GET /items/{id} (documented: 200, 404)',
      ]);
    });

    it('on a field the schema does not describe (a controller returning an extra field), nested too', () => {
      expect(check({ body: { ...ITEM, internal: 1 } })).toEqual(['body.internal: a field the document does not describe']);
      expect(list([ITEM, { ...ITEM, owner: { login: 'a', password: 'p' } }])).toEqual([
        'body[1].owner.password: a field the document does not describe',
      ]);
    });

    it('on a missing required field', () => {
      expect(check({ body: { id: ITEM.id } })).toEqual(['body.name: a required field is missing']);
      expect(list([ITEM, { name: 'x' }])).toEqual(['body[1].id: a required field is missing']);
    });

    it('on a wrong type, a wrong format, a violated bound', () => {
      expect(check({ body: { ...ITEM, name: 7 } })).toEqual(['body.name: must be string, got number']);
      expect(check({ body: { ...ITEM, id: 'not-a-uuid' } })).toEqual(['body.id: must match format "uuid"']);
      expect(check({ body: { ...ITEM, count: 0 } })).toEqual(['body.count: must be > 0']);
      expect(check({ body: 'text', headers: { 'content-type': 'application/json' }, text: 'text' })).toEqual([
        'body: Content-Type application/json but the body is not valid JSON',
      ]);
    });

    it('on null where the schema is not nullable', () => {
      expect(check({ body: { ...ITEM, name: null } })).toEqual(['body.name: must be string, got null (not nullable)']);
      expect(check({ body: null })).toEqual(['body: must be object, got null (not nullable)']);
    });

    it('on null where nullable does not reach (3.0.3): next to allOf, $ref or an enum without null', () => {
      expect(check({ body: { ...ITEM, owner: null } })).toEqual(['body.owner: must be object, got null (not nullable)']);
      expect(check({ body: { ...ITEM, reviewer: null } })).toEqual(['body.reviewer: must be object, got null (not nullable)']);
      expect(check({ body: { ...ITEM, approver: null } })).toEqual(['body.approver: must be object, got null (not nullable)']);
      expect(check({ body: { ...ITEM, state: null } })).toEqual([
        'body.state: must be equal to one of the allowed values ["open","closed"]',
      ]);
    });

    it('on a value that is neither null nor the referenced schema, in a nullable reference', () => {
      for (const editor of [{ login: 1 }, {}, { login: 'a', extra: 1 }, 'a', false]) {
        expect([editor, check({ body: { ...ITEM, editor } }).join('\n')]).toEqual([editor, expect.stringMatching(/^body\.editor/)]);
      }
      expect(check({ body: { ...ITEM, editor: { login: 1 } } })).toContain('body.editor.login: must be string, got number');
      expect(check({ body: { ...ITEM, phase: 'final' } })).toEqual([
        'body.phase: must be equal to one of the allowed values ["draft",null]',
      ]);
    });

    it('on a missing required header (case-insensitive), and a header of the wrong type', () => {
      expect(list([ITEM], { 'content-type': 'application/json' })).toEqual([
        'header X-Request-Id: required by the document, missing from the response',
        'header X-Total-Count: required by the document, missing from the response',
      ]);
      expect(list([ITEM], { ...json, 'X-TOTAL-COUNT': '1' })).toEqual([]);
      expect(list([ITEM], { ...json, 'x-total-count': 'many' })).toEqual(['header X-Total-Count: "many" is not an integer (digits)']);
      const tooMany = check({ method: 'POST', url: '/items', status: 429, headers: { ...json, 'retry-after': '0' }, body: ITEM });
      expect(tooMany).toEqual([
        'header Retry-After "0": must be >= 1',
        'body.statusCode: a required field is missing',
        'body.error: a required field is missing',
        'body.message: a required field is missing',
        'body.id: a field the document does not describe',
        'body.name: a field the document does not describe',
      ]);
    });

    it('on a documented body that is missing, and on a body that is not documented', () => {
      expect(check({ body: undefined, text: '' })).toEqual(['body: the document describes one (application/json), the response has none']);
      expect(check({ method: 'DELETE', status: 204, headers: {}, body: undefined })).toEqual([]);
      expect(check({ method: 'DELETE', status: 204, body: { deleted: true } })).toEqual([
        'body: the response has one (application/json; charset=utf-8), the document describes none for this status',
      ]);
      expect(check({ headers: {}, body: ITEM })).toEqual(['body: the response has one but no Content-Type (documented: application/json)']);
    });

    it('on an unknown route (or an undocumented method) answered 200, and on a 404 without the error body', () => {
      expect(check({ url: '/nope', body: {} })).toEqual([
        'GET /nope matches no operation of the document: only 404, 405 may answer it, not 200',
      ]);
      expect(check({ method: 'PUT', url: '/items/1', body: ITEM })).toEqual([
        'PUT /items/1 matches no operation of the document: only 404, 405 may answer it, not 200',
      ]);
      expect(check({ url: '/nope', status: 404, headers: {}, body: undefined })).toEqual([
        'GET /nope matches no operation of the document (answered 404): ' +
          'body: the document describes one (application/json), the response has none',
      ]);
    });

    it('caps the violations of one exchange', () => {
      const violations = list(Array.from({ length: 30 }, () => ({ id: 1 })));
      expect(violations).toHaveLength(21);
      expect(violations[20]).toBe('... and 40 more');
    });
  });

  it('refuses a document that is not OpenAPI 3.0', () => {
    expect(() => new OpenApiContract({ ...DOCUMENT, openapi: '3.1.0' })).toThrow('an OpenAPI 3.0 document is expected');
  });

  it.each<[string, object, string]>([
    ['const', { type: 'string', const: 'a' }, 'const is not a keyword of an OpenAPI 3.0 schema'],
    ['examples', { type: 'string', examples: ['a'] }, 'examples is not a keyword of an OpenAPI 3.0 schema'],
    ['a type array', { type: ['string', 'null'] }, 'type ["string","null"] is not an OpenAPI 3.0 type'],
    ['type null', { type: 'null' }, 'type "null" is not an OpenAPI 3.0 type'],
    ['a number for exclusiveMinimum', { type: 'integer', exclusiveMinimum: 0 }, 'exclusiveMinimum is a boolean in OpenAPI 3.0, not 0'],
  ])("refuses a schema in 3.1's forms, which strict 3.0 tools ignore or refuse: %s", (_name, schema, message) => {
    const doc = { ...DOCUMENT, components: { ...DOCUMENT.components, schemas: { ...DOCUMENT.components!.schemas, Odd: schema as never } } };
    expect(() => new OpenApiContract(doc)).toThrow(message);
  });
});

describe('strictReadingProblems', () => {
  const problems = (schemas: Record<string, object>, paths: OpenApiDocument['paths'] = {}) =>
    strictReadingProblems({ openapi: '3.0.3', paths, components: { schemas: { Owner: DOCUMENT.components!.schemas!.Owner, ...schemas } } });

  it('finds nothing in forms every reading agrees on (a typed nullable, a null branch beside a $ref, null in the enum)', () => {
    expect(
      problems({
        A: {
          type: 'object',
          properties: {
            note: { type: 'string', nullable: true },
            owner: { oneOf: [ref('Owner'), { type: 'object', nullable: true, enum: [null] }], description: 'or null' },
            phase: { type: 'string', nullable: true, enum: ['draft', null] },
            list: { type: 'array', items: { type: 'integer', minimum: 0, exclusiveMinimum: true } },
            map: { type: 'object', additionalProperties: { type: 'number', nullable: true } },
            free: { type: 'object', additionalProperties: true, 'x-note': 1, example: { schema: { nullable: true } } },
          },
        },
      }),
    ).toEqual([]);
  });

  it('finds nullable where it does not reach, $ref siblings and 3.1 forms, in components and in operations', () => {
    const json = '#/paths/~1a~1{id}/get/responses/200/content/application~1json';
    const schema = (s: object) => ({ content: { 'application/json': { schema: s } } });
    const paths = {
      '/a/{id}': {
        get: {
          parameters: [{ name: 'id', in: 'path', schema: { nullable: true } }],
          responses: {
            '200': {
              description: 'x',
              headers: { H: { schema: { type: ['string', 'null'] } } },
              ...schema({ items: { allOf: [ref('Owner')], nullable: true } }),
            },
          },
        },
      },
    };
    expect(
      problems(
        {
          'A/B': {
            type: 'object',
            properties: {
              owner: { type: 'object', allOf: [ref('Owner')], nullable: true },
              approver: { ...ref('Owner'), nullable: true, description: 'ignored too' },
              state: { type: 'string', nullable: true, enum: ['open'] },
              any: { nullable: true },
              list: { type: 'array', items: { oneOf: [{ type: 'string', const: 'a' }, false] } },
              bound: { type: 'number', exclusiveMaximum: 1 },
            },
          },
        },
        paths,
      ),
    ).toEqual([
      '#/components/schemas/A~1B/properties/owner: nullable beside allOf, which still apply to null (OpenAPI 3.0.3)',
      '#/components/schemas/A~1B/properties/approver: nullable, description beside $ref, which OpenAPI 3.0 ignores',
      '#/components/schemas/A~1B/properties/state: nullable with an enum without null, which rejects null',
      '#/components/schemas/A~1B/properties/any: nullable without type in the same schema object has no effect (OpenAPI 3.0.3)',
      '#/components/schemas/A~1B/properties/list/items/oneOf/0: const is not a keyword of an OpenAPI 3.0 schema',
      '#/components/schemas/A~1B/properties/list/items/oneOf/1: false is not a schema object (OpenAPI 3.0 has no boolean schemas)',
      '#/components/schemas/A~1B/properties/bound: exclusiveMaximum is a boolean in OpenAPI 3.0, not 1',
      '#/paths/~1a~1{id}/get/parameters/0/schema: nullable without type in the same schema object has no effect (OpenAPI 3.0.3)',
      '#/paths/~1a~1{id}/get/responses/200/headers/H/schema: type ["string","null"] is not an OpenAPI 3.0 type',
      `${json}/schema/items: nullable without type in the same schema object has no effect (OpenAPI 3.0.3)`,
      `${json}/schema/items: nullable beside allOf, which still apply to null (OpenAPI 3.0.3)`,
    ]);
  });
});
