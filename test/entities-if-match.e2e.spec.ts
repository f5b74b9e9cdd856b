import { ClickHouseService } from '@app/clickhouse';
import { StorageUnavailableError } from '@app/errors';
import { webhookReceiver, type Receiver } from './support/receiver';
import { EntitiesRepository } from '../apps/query/src/entities/entities.repository';
import { basicHeader, http, startApp, uniqueDatabase, type HttpResult, type TestApp } from './support/test-app';

interface Entity {
  searchPhrases: string[];
  language: string | null;
  data: Record<string, unknown>;
}

const ENV = { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' };
const json = { ...basicHeader(), 'content-type': 'application/json' };

/** GET /entities/:type/:id answers an ETag; PUT with If-Match writes only while it is current (RFC 9110), exactly. */
describe('If-Match on entities (e2e over HTTP, a real webhook receiver)', () => {
  let a: TestApp;
  let b: TestApp;
  let receiver: Receiver;

  beforeAll(async () => {
    // Two applications on the same storage, each with its own memory: what two query processes see.
    const database = uniqueDatabase();
    a = await startApp({ ...ENV, CLICKHOUSE_DATABASE: database });
    b = await startApp({ ...ENV, CLICKHOUSE_DATABASE: database });
    receiver = await webhookReceiver(a.url);
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    await receiver.stop();
  });
  beforeEach(() => receiver.reset());

  const get = (path: string, on = a) => http<Entity>(`${on.url}/entities/${path}`, { headers: basicHeader() });
  const put = (path: string, body: unknown, headers: Record<string, string> = {}, on = a) =>
    http<Entity & { message?: string }>(`${on.url}/entities/${path}`, {
      method: 'PUT',
      headers: { ...json, ...headers },
      body: JSON.stringify(body),
    });
  /** The rows stored for the entity (saves, deletes and autosaves). */
  const rows = async (type: string, id: string) => {
    const ch = a.app.get(ClickHouseService);
    const [{ n }] = await ch.query<{ n: string }>(
      `SELECT count() AS n FROM ${ch.table('entities')} WHERE type = {type:String} AND id = {id:String}`,
      { type, id },
    );
    return Number(n);
  };
  const etag = (res: HttpResult) => res.headers.etag as string;
  const statuses = (results: HttpResult[]) => results.map((r) => r.status).sort();

  it('answers a strong ETag that changes with every save, and the PUT answers the new one', async () => {
    const created = await put('synonym/s-1', { searchPhrases: ['coat'] });
    expect(created.status).toBe(201);
    expect(etag(created)).toMatch(/^"\d+"$/);
    const read = await get('synonym/s-1');
    expect(etag(read)).toBe(etag(created));
    const updated = await put('synonym/s-1', { searchPhrases: ['coat', 'cot'] });
    expect(updated.status).toBe(200);
    expect(etag(updated)).not.toBe(etag(created));
    expect(etag(await get('synonym/s-1'))).toBe(etag(updated));
    expect(etag(await get('synonym/s-1', b))).toBe(etag(updated));
    // An autosave changes no state: no ETag in its answer, the entity's stays.
    const autosaved = await put('synonym/s-1?autosave=true', { searchPhrases: ['draft'] });
    expect([autosaved.status, autosaved.headers.etag]).toEqual([200, undefined]);
    expect(etag(await get('synonym/s-1'))).toBe(etag(updated));
  });

  it('saves with the current ETag (read, merge, write), and the webhook is called', async () => {
    await put('landingpage/lp-1', { searchPhrases: ['coat'], language: 'de', data: { title: 'Coats' } });
    receiver.reset();
    const read = await get('landingpage/lp-1');
    // The body a PUT takes: searchPhrases, language (none: every language) and data.
    const { searchPhrases, language, data } = read.body;
    const merged = { searchPhrases: [...searchPhrases, 'cot'], language: language ?? undefined, data };
    const saved = await put('landingpage/lp-1', merged, { 'if-match': etag(read) });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ searchPhrases: ['coat', 'cot'], language: 'de', data: { title: 'Coats' } });
    expect(etag(saved)).toBe(etag(await get('landingpage/lp-1')));
    expect(receiver.calls.map((c) => c.body)).toEqual([
      { customer: 'demo', instance: 'live', type: 'landingpage', ids: ['lp-1'], action: 'update' },
    ]);
    // `*` matches any existing entity; a list matches when one of its tags is the ETag.
    expect((await put('landingpage/lp-1', merged, { 'if-match': '*' })).status).toBe(200);
    const current = etag(await get('landingpage/lp-1'));
    expect((await put('landingpage/lp-1', merged, { 'if-match': `"1", ${current}` })).status).toBe(200);
  });

  it('answers 412 for a stale ETag and writes nothing: no row, no webhook call, the entity unchanged', async () => {
    const first = await put('banner/b-1', { searchPhrases: ['hat'], data: { v: 1 } });
    await put('banner/b-1', { searchPhrases: ['hat'], data: { v: 2 } });
    const before = await get('banner/b-1');
    const stored = await rows('banner', 'b-1');
    receiver.reset();
    const stale = await put('banner/b-1', { searchPhrases: ['cap'], data: { v: 3 } }, { 'if-match': etag(first) });
    expect(stale.status).toBe(412);
    expect(stale.body.message).toBe(
      `The banner b-1 was changed by another request since it was read (its ETag is now ${etag(before)}); nothing was written. ` +
        'Read it again and merge',
    );
    // A weak tag never matches If-Match (strong comparison).
    expect((await put('banner/b-1', { data: {} }, { 'if-match': `W/${etag(before)}` })).status).toBe(412);
    expect(await get('banner/b-1')).toMatchObject({ body: before.body, headers: { etag: etag(before) } });
    expect(await rows('banner', 'b-1')).toBe(stored);
    expect(receiver.calls).toEqual([]);
  });

  it('answers 412 for If-Match on an entity that does not exist, and If-None-Match: * creates only', async () => {
    expect((await put('menu/m-1', { data: {} }, { 'if-match': '*' })).status).toBe(412);
    expect((await put('menu/m-1', { data: {} }, { 'if-match': '"123"' })).status).toBe(412);
    expect(await rows('menu', 'm-1')).toBe(0);
    expect(receiver.calls).toEqual([]);
    const created = await put('menu/m-1', { data: { v: 1 } }, { 'if-none-match': '*' });
    expect(created.status).toBe(201);
    const again = await put('menu/m-1', { data: { v: 2 } }, { 'if-none-match': '*' });
    expect(again.status).toBe(412);
    expect((await get('menu/m-1')).body.data).toEqual({ v: 1 });
    // Deleted, it exists no more: If-Match fails, If-None-Match: * creates it again.
    expect((await http(`${a.url}/entities/menu/m-1`, { method: 'DELETE', headers: basicHeader() })).status).toBe(200);
    expect((await put('menu/m-1', { data: {} }, { 'if-match': etag(created) })).status).toBe(412);
    expect((await put('menu/m-1', { data: { v: 3 } }, { 'if-none-match': '*' })).status).toBe(201);
  });

  it('refuses a malformed If-Match with 400 naming it', async () => {
    const res = await put('menu/m-2', { data: {} }, { 'if-match': 'not-quoted' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('If-Match must be * or a list of quoted entity tags, e.g. If-Match: "1764146400000000000"');
    expect(await rows('menu', 'm-2')).toBe(0);
  });

  it('lets exactly one of 5 concurrent saves with the same ETag through; the others are 412', async () => {
    const read = await put('category/c-1', { searchPhrases: ['shoe'] });
    receiver.reset();
    const stored = await rows('category', 'c-1');
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) => put('category/c-1', { searchPhrases: ['shoe', `v${i}`] }, { 'if-match': etag(read) })),
    );
    expect(statuses(results)).toEqual([200, 412, 412, 412, 412]);
    const winner = results.find((r) => r.status === 200)!;
    expect(await get('category/c-1')).toMatchObject({
      body: { searchPhrases: winner.body.searchPhrases },
      headers: { etag: etag(winner) },
    });
    expect(await rows('category', 'c-1')).toBe(stored + 1);
    expect(receiver.calls.map((c) => c.body)).toEqual([
      { customer: 'demo', instance: 'live', type: 'category', ids: ['c-1'], action: 'update' },
    ]);
  });

  it('lets exactly one through when the concurrent saves arrive at two processes', async () => {
    for (let round = 0; round < 5; round++) {
      const id = `x-${round}`;
      const read = await put(`stream/${id}`, { searchPhrases: ['shoe'] });
      receiver.reset();
      const stored = await rows('stream', id);
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          put(`stream/${id}`, { searchPhrases: ['shoe', `v${i}`] }, { 'if-match': etag(read) }, i % 2 === 0 ? a : b),
        ),
      );
      expect({ round, statuses: statuses(results) }).toEqual({ round, statuses: [200, 412, 412, 412, 412, 412] });
      const winner = results.find((r) => r.status === 200)!;
      expect((await get(`stream/${id}`, b)).body.searchPhrases).toEqual(winner.body.searchPhrases);
      expect(await rows('stream', id)).toBe(stored + 1);
      expect(receiver.calls).toHaveLength(1);
    }
  });

  it('does not let a claim stamped before the winner but stored after its checks write too', async () => {
    // The store stamps a claim when its insert begins and shows it when the insert ends: on a busy machine a claim
    // begun first can become visible after another process checked that it was first. Here a has passed its checks
    // and is about to write when b's claim, stamped a second before a's, is stored; b's checks run before a writes.
    const read = await put('stream/stamped', { searchPhrases: ['shoe'] });
    receiver.reset();
    const store = b.app.get(ClickHouseService);
    const insert = store.insert.bind(store);
    const earlier = new Date(Date.now() - 1000).toISOString().replace('T', ' ').replace('Z', '');
    const stamped = (table: string, rows: readonly object[]) =>
      table === 'intake_claims' ? rows.map((r) => ({ ...r, at: earlier })) : rows;
    const backdated = jest.spyOn(store, 'insert').mockImplementation((table, rows, token) => insert(table, stamped(table, rows), token));
    const entities = a.app.get(EntitiesRepository);
    const append = entities.append.bind(entities);
    let second: HttpResult | undefined;
    const held = jest.spyOn(entities, 'append').mockImplementation(async (...args) => {
      second = await put('stream/stamped', { searchPhrases: ['shoe', 'b'] }, { 'if-match': etag(read) }, b);
      return append(...args);
    });
    try {
      const first = await put('stream/stamped', { searchPhrases: ['shoe', 'a'] }, { 'if-match': etag(read) }, a);
      expect([first.status, second?.status]).toEqual([200, 412]);
      expect((await get('stream/stamped', b)).body.searchPhrases).toEqual(['shoe', 'a']);
      expect(receiver.calls).toHaveLength(1);
    } finally {
      backdated.mockRestore();
      held.mockRestore();
    }
  });

  it('lets the next save of the same ETag through after the winner failed to write (its claim is released)', async () => {
    const read = await put('stream/released', { searchPhrases: ['shoe'] });
    const failing = jest.spyOn(b.app.get(EntitiesRepository), 'append').mockRejectedValueOnce(new StorageUnavailableError());
    expect((await put('stream/released', { searchPhrases: ['shoe', 'b'] }, { 'if-match': etag(read) }, b)).status).toBe(503);
    failing.mockRestore();
    const again = await Promise.all(
      [a, b].map((on, i) => put('stream/released', { searchPhrases: ['shoe', `${i}`] }, { 'if-match': etag(read) }, on)),
    );
    expect(statuses(again)).toEqual([200, 412]);
  });

  it('keeps saves without If-Match as they were: last write wins', async () => {
    await put('filter/f-1', { data: { v: 1 } });
    const results = await Promise.all([put('filter/f-1', { data: { v: 2 } }), put('filter/f-1', { data: { v: 3 } }, {}, b)]);
    expect(statuses(results)).toEqual([200, 200]);
    expect(receiver.calls).toHaveLength(3);
  });
});
