import { basicHeader, http, startApp, type TestApp } from './support/test-app';

describe('bad input over HTTP', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  const post = (body: string | Buffer, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
    http<{ statusCode: number; message: string }>(`${t.url}/secret`, { method: 'POST', headers: { ...basicHeader(), ...headers }, body });

  it('answers 400 for malformed JSON, without a stack trace', async () => {
    const res = await post('{"description":');
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^Malformed JSON body/);
    expect(JSON.stringify(res.body)).not.toMatch(/at .*\.js:\d+/);
  });

  it('answers 400 for a body that is not UTF-8', async () => {
    const res = await post(Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]));
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Request body is not valid UTF-8');
  });

  it('answers 413 for a body over the 1 MB limit of ordinary routes', async () => {
    const res = await post(JSON.stringify({ description: 'x'.repeat(1024 * 1024) }));
    expect(res.status).toBe(413);
    expect(res.body.message).toBe('Request body exceeds the limit of 1048576 bytes for this route');
  });

  it('answers 413 on every route, a GET too, when the declared body is over the limit (as the document says)', async () => {
    const res = await http<{ message: string }>(`${t.url}/health`, { body: 'x'.repeat(1024 * 1024 + 1) });
    expect(res.status).toBe(413);
    expect(res.body.message).toBe('Request body exceeds the limit of 1048576 bytes for this route');
  });

  it('answers 415 for a body that is not JSON', async () => {
    expect((await post('description=x', { 'content-type': 'application/x-www-form-urlencoded' })).status).toBe(415);
  });

  it('answers 404 as JSON for an unknown route', async () => {
    const res = await http(`${t.url}/no-such-route`, { headers: basicHeader() });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ statusCode: 404, error: 'Not Found', message: 'Cannot GET /no-such-route' });
  });

  it.each([
    ['PUT', '/no-such-route', 'text/plain', 'x'],
    ['POST', '/docs-json', 'application/json', '{"broken":'],
    ['PATCH', '/secret/x', 'application/x-www-form-urlencoded', 'a=b'],
    ['POST', '/no-such-route', 'application/json', 'x'.repeat(2 * 1024 * 1024)],
  ])('answers 404 for %s %s whatever the body (no 415, 400 or 413 for a route that does not exist)', async (method, path, type, body) => {
    const res = await http(`${t.url}${path}`, { method, headers: { ...basicHeader(), 'content-type': type }, body });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ statusCode: 404, error: 'Not Found', message: `Cannot ${method} ${path}` });
  });

  it.each(['/entities/menu/%E0%A4%A', '/health/%E0%A4%A', '/nope/%zz'])(
    'answers a malformed URL (%s) 400 with the error body and X-Request-Id',
    async (path) => {
      const res = await http(`${t.url}${path}`, { headers: basicHeader() });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ statusCode: 400, error: 'Bad Request', message: 'Malformed URL: a %-escape is not valid' });
      expect(res.headers['x-request-id']).toBeTruthy();
    },
  );

  it("answers a malformed URL under Algolia's /2 routes in Algolia's form, { message, status }", async () => {
    const res = await http(`${t.url}/2/filters/%E0%A4%A?index=live`, { headers: basicHeader() });
    expect([res.status, res.body]).toEqual([400, { status: 400, message: 'Malformed URL: a %-escape is not valid' }]);
  });

  it('answers an entity id over 200 characters 400 naming the rule, not 404 (the router does not cut long ids)', async () => {
    const res = await http<{ message: string }>(`${t.url}/entities/menu/${'a'.repeat(600)}`, {
      method: 'PUT',
      headers: { ...basicHeader(), 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('id must be 1-200 characters of letters, digits and . _ : -');
  });

  it('answers 400 for a malformed key id', async () => {
    expect((await http(`${t.url}/secret/not-a-uuid`, { method: 'DELETE', headers: basicHeader() })).status).toBe(400);
  });

  it('serves /health without credentials', async () => {
    const res = await http(`${t.url}/health`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', storage: 'up' });
  });
});

describe('deeply nested JSON', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  it('answers 400 naming the limit instead of walking it, and accepts 64 levels', async () => {
    const nested = (n: number) => '['.repeat(n) + ']'.repeat(n);
    const put = (body: string) =>
      http<{ message: string }>(`${t.url}/entities/menu`, {
        method: 'PUT',
        headers: { ...basicHeader(), 'content-type': 'application/json' },
        body,
      });
    const deep = await put(nested(3000));
    expect(deep.status).toBe(400);
    expect(deep.body.message).toBe('JSON body is nested deeper than 64 levels');
    expect((await put(JSON.stringify({ items: [{ id: 'x', data: JSON.parse(`{"a":${nested(60)}}`) as unknown }] }))).status).toBe(200);
    // Brackets inside strings are text, not nesting.
    expect((await put(JSON.stringify({ items: [{ id: 'y', searchPhrases: ['['.repeat(500)] }] }))).status).toBe(200);
  });
});
