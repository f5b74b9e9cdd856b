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
