import { basicHeader, hmacHeaders, http, startApp, uniqueDatabase, type TestApp } from './support/test-app';

/**
 * A second process: the app loaded from its own copy of the modules, so nothing held in module state (a
 * per-process counter, a cached clock offset) is shared with the first one. Storage is shared, as two processes
 * share a server (the embedded engine binds one data directory per process, so both run in this one).
 */
function startAppAsAnotherProcess(env: Record<string, string>): Promise<TestApp> {
  let start!: typeof startApp;
  // Validation metadata (decorators) must be read by the same copy that recorded it: those libraries are shared.
  const shared = Object.fromEntries(['class-transformer', 'class-validator'].map((name) => [name, jest.requireActual<object>(name)]));
  jest.isolateModules(() => {
    for (const [name, module] of Object.entries(shared)) {
      jest.doMock(name, () => module);
    }
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- isolateModules loads synchronously, import() cannot
    start = (require('./support/test-app') as typeof import('./support/test-app')).startApp;
  });
  return start(env);
}

const HOUR = 60 * 60 * 1000;

/**
 * Runs `action` as a process whose clock is `offsetMs` off: Date.now and the monotonic clock (from which a process
 * derives wall time) are shifted while it runs. Both apps share this jest process, so the shift is applied only
 * around the requests of the process that is meant to be skewed.
 */
async function withClockOffset<T>(offsetMs: number, action: () => Promise<T>): Promise<T> {
  const realNow = Date.now.bind(Date);
  const realHrtime = process.hrtime.bigint.bind(process.hrtime);
  const now = jest.spyOn(Date, 'now').mockImplementation(() => realNow() + offsetMs);
  const hrtime = jest.spyOn(process.hrtime, 'bigint').mockImplementation(() => realHrtime() + BigInt(offsetMs) * 1_000_000n);
  try {
    return await action();
  } finally {
    now.mockRestore();
    hrtime.mockRestore();
  }
}

const json = (body: unknown) => ({ headers: { ...basicHeader(), 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('the latest command wins across processes whatever their clocks say', () => {
  let ahead: TestApp; // a process whose clock runs an hour ahead
  let behind: TestApp; // a process whose clock is an hour behind

  beforeAll(async () => {
    const database = uniqueDatabase('clock');
    ahead = await startApp({ CLICKHOUSE_DATABASE: database });
    behind = await startAppAsAnotherProcess({ CLICKHOUSE_DATABASE: database });
  });
  afterAll(async () => {
    await ahead.close();
    await behind.close();
  });

  it('a key created by a process an hour ahead and revoked by one an hour behind is revoked', async () => {
    const created = await withClockOffset(HOUR, () =>
      http<{ id: string; secret: string }>(`${ahead.url}/secret`, {
        method: 'POST',
        ...json({ description: 'skewed', permissions: ['secret:read'] }),
      }),
    );
    expect(created.status).toBe(201);
    const key = created.body;
    expect((await http(`${behind.url}/secret`, { headers: hmacHeaders(key.secret) })).status).toBe(200);

    const revoked = await withClockOffset(-HOUR, () =>
      http(`${behind.url}/secret/${key.id}`, { method: 'DELETE', headers: basicHeader() }),
    );
    expect(revoked.status).toBe(200);

    expect((await http(`${behind.url}/secret`, { headers: hmacHeaders(key.secret) })).status).toBe(401);
    // The other process sees it too once its key cache (2 s) has expired.
    const deadline = Date.now() + 5000;
    let status = 200;
    while (status !== 401 && Date.now() < deadline) {
      status = (await http(`${ahead.url}/secret`, { headers: hmacHeaders(key.secret) })).status;
      if (status !== 401) {
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    expect(status).toBe(401);
    const listed = await http<{ id: string }[]>(`${ahead.url}/secret`, { headers: basicHeader() });
    expect(listed.body.map((k) => k.id)).not.toContain(key.id);
  });

  it('the configuration saved last (by the process behind) is the configuration', async () => {
    const first = await withClockOffset(HOUR, () =>
      http(`${ahead.url}/configuration`, { method: 'PUT', ...json({ webhookConfig: { url: 'https://first.example.com/hook' } }) }),
    );
    expect(first.status).toBe(200);
    const second = await withClockOffset(-HOUR, () =>
      http(`${behind.url}/configuration`, { method: 'PUT', ...json({ webhookConfig: { url: 'https://second.example.com/hook' } }) }),
    );
    expect(second.status).toBe(200);
    for (const app of [ahead, behind]) {
      const res = await http(`${app.url}/configuration`, { headers: basicHeader() });
      expect(res.body).toEqual({ webhookConfig: { url: 'https://second.example.com/hook' }, alertConfig: null, algoliaIndexes: {} });
    }
  });

  it('an entity changed and then deleted by the process behind is changed, then deleted', async () => {
    const created = await withClockOffset(HOUR, () =>
      http(`${ahead.url}/entities/synonym/skew-1`, { method: 'PUT', ...json({ searchPhrases: ['alpha'] }) }),
    );
    expect(created.status).toBe(201);
    const updated = await withClockOffset(-HOUR, () =>
      http(`${behind.url}/entities/synonym/skew-1`, { method: 'PUT', ...json({ searchPhrases: ['beta'] }) }),
    );
    expect(updated.status).toBe(200);
    for (const app of [ahead, behind]) {
      const res = await http<{ searchPhrases: string[] }>(`${app.url}/entities/synonym/skew-1`, { headers: basicHeader() });
      expect(res.status).toBe(200);
      expect(res.body.searchPhrases).toEqual(['beta']);
    }
    const deleted = await withClockOffset(-2 * HOUR, () =>
      http(`${behind.url}/entities/synonym/skew-1`, { method: 'DELETE', headers: basicHeader() }),
    );
    expect(deleted.status).toBe(200);
    for (const app of [ahead, behind]) {
      expect((await http(`${app.url}/entities/synonym/skew-1`, { headers: basicHeader() })).status).toBe(404);
    }
  });
});
