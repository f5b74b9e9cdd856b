import { basicHeader, http, startApp, type TestApp } from './support/test-app';
import { Receiver } from './support/receiver';

const TYPES = [
  'landingpage',
  'component',
  'menu',
  'stream',
  'filter',
  'banner',
  'category',
  'synonym',
  'antonym',
  'recommendation',
  'productfeed',
];
const TIMEOUT_MS = 1000;

describe('webhook delivery on entity changes (real receiver on loopback)', () => {
  let t: TestApp;
  let receiver: Receiver;
  beforeAll(async () => {
    t = await startApp({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS) });
    receiver = await new Receiver().start();
  });
  afterAll(async () => {
    await t.close();
    await receiver.stop();
  });
  beforeEach(() => receiver.reset());

  const json = { ...basicHeader(), 'content-type': 'application/json' };
  const configure = (url: string) =>
    http(`${t.url}/configuration`, { method: 'PUT', headers: json, body: JSON.stringify({ webhookConfig: { url } }) });
  const put = (path: string, body: unknown) =>
    http<Record<string, unknown>>(`${t.url}${path}`, { method: 'PUT', headers: json, body: JSON.stringify(body) });
  const del = (path: string) => http<Record<string, unknown>>(`${t.url}${path}`, { method: 'DELETE', headers: basicHeader() });
  const notifications = () =>
    http<Array<{ kind: string; message: string; details: Record<string, unknown> }>>(`${t.url}/notifications?_end=1000`, {
      headers: basicHeader(),
    });

  beforeAll(async () => {
    expect((await configure(`${receiver.url}/hook?token=s3cret`)).status).toBe(200);
  });

  it.each(TYPES)('sends the documented body for create, update and delete of a %s, before the save answers', async (type) => {
    receiver.reset({ status: 204, delayMs: 100 });
    const started = Date.now();
    const created = await put(`/entities/${type}/e-1`, { searchPhrases: ['Blue Hat'], data: { title: 'x' } });
    expect(created.status).toBe(201);
    // The call arrived before the answer, and the answer waited for the receiver.
    expect(receiver.calls).toHaveLength(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(100);
    expect((await put(`/entities/${type}/e-1`, { searchPhrases: [] })).status).toBe(200);
    expect((await del(`/entities/${type}/e-1`)).body).toEqual({ ok: true });
    const base = { customer: 'demo', instance: 'live', type, ids: ['e-1'] };
    expect(receiver.calls.map((c) => c.body)).toEqual([
      { ...base, action: 'create' },
      { ...base, action: 'update' },
      { ...base, action: type === 'landingpage' ? 'delete' : 'remove' },
    ]);
    for (const call of receiver.calls) {
      expect(call.headers['content-type']).toBe('application/json');
      expect(call.path).toBe('/hook?token=s3cret');
    }
  });

  it('sends one call per action for a bulk change, and one for a bulk delete', async () => {
    await put('/entities/synonym/x', { searchPhrases: ['a'] });
    receiver.reset();
    const bulk = await put('/entities/synonym', { items: [{ id: 'x', searchPhrases: ['b'] }, { id: 'y' }, { id: 'z' }] });
    expect(bulk.status).toBe(200);
    expect(bulk.body).toMatchObject({ created: ['y', 'z'], updated: ['x'] });
    expect(receiver.calls.map((c) => c.body)).toEqual([
      { customer: 'demo', instance: 'live', type: 'synonym', ids: ['y', 'z'], action: 'create' },
      { customer: 'demo', instance: 'live', type: 'synonym', ids: ['x'], action: 'update' },
    ]);
    receiver.reset();
    const removed = await del('/entities/synonym?ids[]=x&ids[]=y&ids[]=unknown');
    expect(removed.body).toEqual({ ok: true, deleted: ['x', 'y'] });
    expect(receiver.calls.map((c) => c.body)).toEqual([
      { customer: 'demo', instance: 'live', type: 'synonym', ids: ['x', 'y'], action: 'remove' },
    ]);
  });

  it('sends nothing for an autosave, which leaves the saved state as it was', async () => {
    await put('/entities/landingpage/home', { data: { title: 'saved' } });
    receiver.reset();
    expect((await put('/entities/landingpage/home?autosave=true', { data: { title: 'draft' } })).status).toBe(200);
    expect(receiver.calls).toHaveLength(0);
    const current = await http<{ data: unknown }>(`${t.url}/entities/landingpage/home`, { headers: basicHeader() });
    expect(current.body.data).toEqual({ title: 'saved' });
  });

  it('sends nothing while the webhook is disabled with an empty url', async () => {
    expect((await configure('')).body).toEqual({ webhookConfig: { url: '' }, alertConfig: null, algoliaIndexes: {} });
    await put('/entities/menu/main', { data: {} });
    expect(receiver.calls).toHaveLength(0);
    expect((await configure(`${receiver.url}/hook?token=s3cret`)).status).toBe(200);
  });

  it.each([
    ['a receiver answering 500', { status: 500 } as const, 'answered 500'],
    ['a receiver that never answers', 'hang' as const, `no answer within ${TIMEOUT_MS} ms`],
    ['a 3xx answer, which is not followed', { status: 302, location: '/elsewhere' } as const, 'answered 302 (redirects are not followed)'],
  ])('still saves with %s, within the timeout, and leaves a notification', async (_name, behaviour, reason) => {
    receiver.reset(behaviour);
    const started = Date.now();
    const res = await put(`/entities/banner/b-${Date.now()}`, { data: {} });
    expect(res.status).toBe(201);
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 700);
    expect(receiver.calls.map((c) => c.path)).toEqual(['/hook?token=s3cret']);
    const list = await notifications();
    expect(list.body[0]).toMatchObject({ kind: 'webhook-failed', message: `Webhook delivery to ${receiver.url} failed: ${reason}` });
    expect(JSON.stringify(list.body[0])).not.toContain('s3cret');
  });

  it('still saves when the receiver port is closed, and leaves a notification', async () => {
    const closed = await new Receiver().start();
    await closed.stop();
    await configure(`${closed.url}/hook`);
    try {
      expect((await put('/entities/filter/f-1', { data: {} })).status).toBe(201);
      const list = await notifications();
      expect(list.body[0].message).toBe(`Webhook delivery to ${closed.url} failed: the host did not answer`);
      expect(list.body[0].details).toEqual({ type: 'filter', action: 'create', ids: ['f-1'] });
    } finally {
      await configure(`${receiver.url}/hook?token=s3cret`);
    }
  });

  it('answers 400 for an unknown entity type and a bad id', async () => {
    const res = await put('/entities/widget/w-1', { data: {} });
    expect(res.status).toBe(400);
    expect(String(res.body.message)).toContain('Unknown entity type "widget"');
    expect((await put('/entities/menu/bad%20id', { data: {} })).status).toBe(400);
    expect((await put('/entities/menu/m?autosave=maybe', { data: {} })).status).toBe(400);
  });

  it('lets a receiver fetch what changed, paginated with X-Total-Count', async () => {
    for (const id of ['p1', 'p2', 'p3']) {
      await put(`/entities/productfeed/${id}`, { searchPhrases: [id], language: 'de' });
    }
    const page = await http<Array<{ id: string }>>(`${t.url}/entities/productfeed?_start=1&_end=3`, { headers: basicHeader() });
    expect(page.status).toBe(200);
    expect(page.headers['x-total-count']).toBe('3');
    expect(page.body.map((e) => e.id)).toEqual(['p2', 'p3']);
    const one = await http(`${t.url}/entities/productfeed/p1`, { headers: basicHeader() });
    expect(one.body).toMatchObject({ type: 'productfeed', id: 'p1', searchPhrases: ['p1'], language: 'de' });
    await del('/entities/productfeed/p1');
    expect((await http(`${t.url}/entities/productfeed/p1`, { headers: basicHeader() })).status).toBe(404);
    expect((await del('/entities/productfeed/p1')).status).toBe(404);
  });
});
