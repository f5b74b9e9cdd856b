import { randomUUID } from 'node:crypto';
import { ClickHouseService } from '@app/clickhouse';
import { LEGACY_SECRET, basicHeader, createKey, hmacHeaders, http, startApp, type TestApp } from './support/test-app';
import { storedCounts } from './support/storage';

describe('POST /events on the embedded transport (e2e over HTTP)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  const send = (payload: unknown, secret = LEGACY_SECRET, headers: Record<string, string> = {}) => {
    const body = JSON.stringify(payload);
    return http<{ accepted: number; rejected: Array<{ index: number; reason: string }> }>(`${t.url}/events`, {
      method: 'POST',
      headers: { ...hmacHeaders(secret, body), ...headers },
      body,
    });
  };

  it('answers 202 listing exactly the bad indexes, after the good events are stored', async () => {
    const before = await storedCounts(t);
    const events = [
      { phrase: 'Blue Hat', language: 'en', hits: 3 },
      { phrase: 'blue  hat', language: 'en', hits: 0 },
      { phrase: '', language: 'en', hits: 1 },
      { phrase: 'shoes', language: 'de', hits: -2 },
      { phrase: 'Schuhe', language: 'de', hits: 5, userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' },
      'not an object',
      { phrase: 'socks', language: 'en', hits: 1, customer: 'someone-else' },
    ];
    const res = await send({ events });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({
      accepted: 3,
      rejected: [
        { index: 2, reason: 'phrase is empty' },
        { index: 3, reason: 'hits must be an integer >= 0' },
        { index: 5, reason: 'event must be a JSON object' },
        { index: 6, reason: 'customer does not match the authenticated customer' },
      ],
    });
    // Durable before the answer: no waiting.
    const after = await storedCounts(t);
    expect(after.events - before.events).toBe(3);
    expect(after.rollup - before.rollup).toBe(3);
    expect(after.rejected - before.rejected).toBe(4);
  });

  it('keeps rejected events with their raw payload and reason', async () => {
    await send({ events: [{ phrase: 'kept', language: 'en', hits: 'many' }] });
    const ch = t.app.get(ClickHouseService);
    const rows = await ch.query<{ raw: string; reason: string; source: string; instance: string }>(
      `SELECT raw, reason, source, instance FROM ${ch.table('rejected_events')} WHERE raw LIKE '%kept%'`,
    );
    expect(rows).toEqual([
      { raw: '{"phrase":"kept","language":"en","hits":"many"}', reason: 'hits must be an integer >= 0', source: 'http', instance: 'live' },
    ]);
  });

  it('rejects an item whose filters, userToken, country or tags are bad, naming the field, and stores the others', async () => {
    const base = { language: 'en', hits: 0 };
    const events = [
      { ...base, phrase: 'dims good', filters: ['brand:Apple', 'price<=100'], userToken: 'dims-u1', country: 'de', tags: ['mobile'] },
      { ...base, phrase: 'dims bad filter', filters: ['brand:Apple', 'price<=cheap'] },
      { ...base, phrase: 'dims bad user', userToken: 'dims-secret-'.repeat(20) },
      { ...base, phrase: 'dims bad country', country: 'DEU' },
      { ...base, phrase: 'dims bad tag', tags: ['ok', 'a AND b'] },
      { ...base, phrase: 'dims good too' },
    ];
    const res = await send({ events });
    expect([res.status, res.body.accepted]).toEqual([202, 2]);
    expect(res.body.rejected.map((r) => r.index)).toEqual([1, 2, 3, 4]);
    const [filters, user, country, tags] = res.body.rejected.map((r) => r.reason);
    expect(filters).toMatch(/^filters\[1\]'s value must be a finite number/);
    expect(user).toBe('userToken must be a string of 1 to 129 characters');
    expect(country).toMatch(/^country must be two letters/);
    expect(tags).toMatch(/^tags\[1\] contains "AND" or "OR" between spaces/);
    const ch = t.app.get(ClickHouseService);
    const kept = await ch.query<{ raw: string; reason: string }>(
      `SELECT raw, reason FROM ${ch.table('rejected_events')} WHERE raw LIKE '%dims bad%' ORDER BY raw`,
    );
    // Each kept with the reason the answer gave.
    expect(kept.map((r) => r.reason).sort()).toEqual(res.body.rejected.map((r) => r.reason).sort());
    // A user token is personal data: kept only as a hash, in a rejected event too.
    expect(kept.some((r) => r.raw.includes('dims-secret-'))).toBe(false);
    const stored = await ch.query<{ phrase: string; filters: string; user: number; country: string; tags: string[] }>(
      `SELECT phrase, arrayStringConcat(filter_values, ',') AS filters, user_hash != '' AS user, country, tags
       FROM ${ch.table('search_events')} WHERE phrase LIKE 'dims good%' ORDER BY phrase`,
    );
    expect(stored).toEqual([
      { phrase: 'dims good', filters: 'Apple,100', user: 1, country: 'DE', tags: ['mobile'] },
      { phrase: 'dims good too', filters: '', user: 0, country: '', tags: [] },
    ]);
  });

  it('writes the instance of X-Service-Instance and normalises into the rollup', async () => {
    await send(
      {
        events: [
          { phrase: ' GRU\u0308N ', language: 'de', hits: 1 },
          { phrase: 'gr\u00fcn', language: 'de', hits: 2 },
        ],
      },
      LEGACY_SECRET,
      { 'x-service-instance': 'stage' },
    );
    const ch = t.app.get(ClickHouseService);
    const rows = await ch.query<{ phrase: string; n: string }>(
      `SELECT phrase, sum(searches) AS n FROM ${ch.table('search_terms_hourly')} WHERE instance = 'stage' GROUP BY phrase`,
    );
    expect(rows.map((r) => ({ phrase: r.phrase, n: Number(r.n) }))).toEqual([{ phrase: 'gr\u00fcn', n: 2 }]);
  });

  it('does not count a retried request twice when its events carry ids', async () => {
    const events = [1, 2, 3].map((i) => ({ id: randomUUID(), phrase: `retry ${i}`, language: 'en', hits: 1 }));
    const before = await storedCounts(t);
    expect((await send({ events })).status).toBe(202);
    expect((await send({ events })).body).toEqual({ accepted: 3, rejected: [] });
    const after = await storedCounts(t);
    expect(after.events - before.events).toBe(3);
    expect(after.rollup - before.rollup).toBe(3);
  });

  it('shares inserts between concurrent requests and loses none', async () => {
    const before = await storedCounts(t);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, r) =>
        send({ events: Array.from({ length: 50 }, (_, i) => ({ phrase: `concurrent ${r}-${i}`, language: 'en', hits: 1 })) }),
      ),
    );
    expect(results.every((r) => r.status === 202 && r.body.accepted === 50)).toBe(true);
    const after = await storedCounts(t);
    expect(after.events - before.events).toBe(1000);
    expect(after.rollup - before.rollup).toBe(1000);
  });

  it.each([
    [{}, ['events must be an array']],
    [{ events: 'x' }, ['events must be an array']],
    [[{ phrase: 'x', language: 'en', hits: 1 }], ['events must be an array']],
    [{ events: [], extra: 1 }, ['property extra should not exist']],
  ])('answers 400 for the envelope %p', async (payload, message) => {
    const res = await send(payload);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request', message });
  });

  it('drops prototype keys of an event, as for any body, and stores the event', async () => {
    const before = await storedCounts(t);
    const res = await send(JSON.parse('{"events":[{"phrase":"proto keys","language":"en","hits":1,"constructor":1,"__proto__":{"x":1}}]}'));
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ accepted: 1, rejected: [] });
    expect((await storedCounts(t)).events - before.events).toBe(1);
  });

  it('answers 400 for more than 10,000 events and stores none of them', async () => {
    const before = await storedCounts(t);
    const res = await send({ events: Array.from({ length: 10_001 }, () => ({ phrase: 'x', language: 'en', hits: 1 })) });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('events must contain no more than 10000 elements');
    expect((await storedCounts(t)).events).toBe(before.events);
  });

  it('leaves one notification per instance and hour for rejected events', async () => {
    const rejectedNotes = async () =>
      (await http<Array<{ kind: string; message: string }>>(`${t.url}/notifications?_end=100`, { headers: basicHeader() })).body.filter(
        (n) => n.kind === 'events-rejected',
      );
    await send({ events: [{ phrase: 'x', language: 'en', hits: -5 }] });
    await send({ events: [{ phrase: 'y', language: 'en', hits: -6 }] });
    const notes = await rejectedNotes();
    expect(notes).toHaveLength(1);
    expect(notes[0].message).toBe('Search events were rejected, e.g.: phrase is empty');
  });

  it('needs search:write', async () => {
    const reader = await createKey(t.url, ['secret:read']);
    expect((await send({ events: [] }, reader.secret)).status).toBe(403);
  });
});
