import { basicHeader, http, startApp, type TestApp } from './support/test-app';

/**
 * POST /events has a budget of its own (INTAKE_PER_MINUTE), so a shop's event stream never spends the budget of the
 * other routes (RATE_LIMIT_PER_MINUTE) and is not capped by it; PUT /documents stays under RATE_LIMIT_PER_MINUTE
 * (docs/decisions/0040-intake-limit.md).
 */
function client(t: TestApp) {
  const json = (method: string, path: string, payload: unknown) =>
    http(`${t.url}${path}`, {
      method,
      headers: { ...basicHeader(), 'content-type': 'application/json' },
      body: JSON.stringify(payload),
    });
  return {
    events: () => json('POST', '/events', { events: [{ phrase: 'blue hat', language: 'en', hits: 3 }] }),
    documents: () => json('PUT', '/documents', { documents: [{ id: 'd1', rating: 0.5 }] }),
    searchTerms: () => http(`${t.url}/search-terms`, { headers: basicHeader() }),
  };
}

async function statusesOf(times: number, send: () => Promise<{ status: number }>): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < times; i++) {
    statuses.push((await send()).status);
  }
  return statuses;
}

const repeated = (status: number, times: number) => Array<number>(times).fill(status);

/** Starts an app with `env` for the enclosing describe block; the returned function gives its client. */
function appWith(env: Record<string, string>): () => ReturnType<typeof client> {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(env);
  });
  afterAll(() => t.close());
  return () => client(t);
}

describe('INTAKE_PER_MINUTE large, RATE_LIMIT_PER_MINUTE small', () => {
  const app = appWith({ RATE_LIMIT_PER_MINUTE: '5', INTAKE_PER_MINUTE: '1000' });

  it('keeps answering POST /events 202 beyond the general limit, while GET /search-terms gets 429', async () => {
    const c = app();
    expect(await statusesOf(12, c.events)).toEqual(repeated(202, 12));
    expect(await statusesOf(6, c.searchTerms)).toEqual([...repeated(200, 5), 429]);
    expect((await c.events()).status).toBe(202);
  });

  it('keeps PUT /documents under the general limit (a catalogue upload is no shopper traffic)', async () => {
    expect(await statusesOf(6, app().documents)).toEqual([...repeated(202, 5), 429]);
  });
});

describe('INTAKE_PER_MINUTE small', () => {
  const app = appWith({ RATE_LIMIT_PER_MINUTE: '10', INTAKE_PER_MINUTE: '3' });

  it('answers POST /events 429 with Retry-After past it, and the general routes are unaffected', async () => {
    const c = app();
    expect(await statusesOf(3, c.events)).toEqual(repeated(202, 3));
    const limited = await c.events();
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(limited.body).toMatchObject({
      statusCode: 429,
      error: 'Too Many Requests',
      message: expect.stringMatching(/^Too many requests: at most \d+ a minute for this customer \(INTAKE_PER_MINUTE\)/) as unknown,
    });
    expect(await statusesOf(10, c.searchTerms)).toEqual(repeated(200, 10));
    expect(await statusesOf(10, c.documents)).toEqual(repeated(202, 10));
  });
});

describe('INTAKE_PER_MINUTE=0', () => {
  const app = appWith({ RATE_LIMIT_PER_MINUTE: '2', INTAKE_PER_MINUTE: '0' });

  it('never limits POST /events; the general limit still applies to the other routes', async () => {
    const c = app();
    expect(await statusesOf(10, c.events)).toEqual(repeated(202, 10));
    expect(await statusesOf(3, c.searchTerms)).toEqual([...repeated(200, 2), 429]);
  });
});
