import { randomUUID } from 'node:crypto';
import { ClickHouseService } from '@app/clickhouse';
import { chDateTime, type SearchEventRow } from '@app/contracts';
import { IngestWriter } from '@app/intake';
import { LEGACY_SECRET, hmacHeaders, http, startApp, type TestApp } from './support/test-app';
import { caughtUp, describeKafka, startKafka, type KafkaBroker } from './support/kafka';
import { eventually, storedCounts } from './support/storage';

/** A lone UTF-16 surrogate: what a frontend's `slice()` leaves of an emoji. ClickHouse refuses it in a String. */
const LONE = 'a\ud83d';
const MB = 'x'.repeat(1024 * 1024);

type Answer = { accepted: number; rejected: Array<{ index: number; reason: string }> };

function rejectedRows(t: TestApp, customer: string) {
  const ch = t.app.get(ClickHouseService);
  return ch.query<{ reason: string; item_index: number; offset: string; raw: string }>(
    `SELECT reason, item_index, offset, raw FROM ${ch.table('rejected_events')} WHERE customer = {c:String} ORDER BY item_index, offset`,
    { c: customer },
  );
}

describe('poison values on the embedded transport (e2e over HTTP)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({ RATE_LIMIT_PER_MINUTE: '0' });
  });
  afterAll(() => t.close());

  const post = (path: string, payload: unknown, method = 'POST') => {
    const body = JSON.stringify(payload);
    return http<Answer>(`${t.url}${path}`, { method, headers: hmacHeaders(LEGACY_SECRET, body), body });
  };

  it('rejects a poison value in every string field of an event and stores the good ones of the request', async () => {
    const before = await storedCounts(t);
    const events = [
      { phrase: 'good one', language: 'en', hits: 1 },
      { phrase: LONE, language: 'en', hits: 1 },
      { phrase: 'ua', language: 'en', hits: 1, userAgent: `Mozilla ${LONE}` },
      { phrase: 'session', language: 'en', hits: 1, sessionId: LONE },
      { phrase: 'nul\u0000inside', language: 'en', hits: 1 },
      { phrase: MB, language: 'en', hits: 1 },
      { phrase: 'good two', language: 'en', hits: 0 },
    ];
    const res = await post('/events', { events });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({
      accepted: 2,
      rejected: [
        { index: 1, reason: 'phrase is not well-formed Unicode (a lone surrogate)' },
        { index: 2, reason: 'userAgent is not well-formed Unicode (a lone surrogate)' },
        { index: 3, reason: 'sessionId is not well-formed Unicode (a lone surrogate)' },
        { index: 4, reason: 'phrase contains a NUL character' },
        { index: 5, reason: 'phrase is longer than 500 characters' },
      ],
    });
    const after = await storedCounts(t);
    expect(after.events - before.events).toBe(2);
    expect(after.rejected - before.rejected).toBe(5);
  });

  it('rejects a poison field name (echoed in the reason) and stores the good ones', async () => {
    const res = await post('/events', {
      events: [
        { phrase: 'named well', language: 'en', hits: 3 },
        { phrase: 'x', language: 'en', hits: 3, [LONE]: 1 },
        { phrase: 'y', language: 'en', hits: 1, ['k'.repeat(5000)]: 1 },
      ],
    });
    expect(res.status).toBe(202);
    expect(res.body.accepted).toBe(1);
    expect(res.body.rejected.map((r) => r.index)).toEqual([1, 2]);
    expect(res.body.rejected[0].reason).toBe('unknown field a\ufffd');
    expect(res.body.rejected[1].reason.length).toBeLessThan(200);
  });

  it('answers concurrent requests sharing one insert with their own results when one carries a poison value', async () => {
    const before = await storedCounts(t);
    const good = (i: number) => ({
      events: [
        { phrase: `concurrent ${i}`, language: 'en', hits: 1 },
        { phrase: `concurrent ${i}b`, language: 'en', hits: 1 },
      ],
    });
    const answers = await Promise.all([
      post('/events', good(1)),
      post('/events', {
        events: [
          { phrase: 'fine', language: 'en', hits: 1 },
          { phrase: LONE, language: 'en', hits: 1 },
        ],
      }),
      post('/events', good(2)),
      post('/events', good(3)),
    ]);
    expect(answers.map((a) => a.status)).toEqual([202, 202, 202, 202]);
    expect(answers.map((a) => a.body.accepted)).toEqual([2, 1, 2, 2]);
    expect(answers[1].body.rejected).toEqual([{ index: 1, reason: 'phrase is not well-formed Unicode (a lone surrogate)' }]);
    expect((await storedCounts(t)).events - before.events).toBe(7);
  });

  it('rejects poison document ids and keeps the good documents', async () => {
    const res = await post(
      '/documents',
      {
        documents: [
          { id: 'good-doc', rating: 0.5 },
          { id: `doc${LONE}`, rating: 0.5 },
          { id: 'x\u0000y', rating: 0.1 },
        ],
      },
      'PUT',
    );
    expect(res.status).toBe(202);
    expect(res.body).toEqual({
      accepted: 1,
      rejected: [
        { index: 1, reason: 'id is not well-formed Unicode (a lone surrogate)' },
        { index: 2, reason: 'id contains a NUL character' },
      ],
    });
  });

  it('isolates a row the store refuses into rejected_events and stores the rest of the insert (safety net)', async () => {
    // A row that passed no validation (written directly), as a value the validation does not know would be.
    const row = (phrase: string, i: number): SearchEventRow => ({
      event_id: randomUUID(),
      customer: 'net',
      instance: 'live',
      ts: chDateTime(),
      phrase,
      raw_phrase: phrase,
      language: 'en',
      hits: 1,
      bot: false,
      session_hash: '',
      source: 'kafka',
      topic: 'net',
      partition: 0,
      offset: i,
      received_at: chDateTime(),
    });
    const rows = Array.from({ length: 40 }, (_, i) => row(i === 17 ? LONE : `net ${i}`, i));
    const refused = await t.app
      .get(IngestWriter)
      .write({ table: 'search_events', kind: 'search-event', tokenSuffix: 'events' }, rows, [], 'net:0:0-39');
    expect([...refused.keys()]).toEqual([rows[17]]);
    expect(await storedCounts(t, 'net')).toEqual({ events: 39, distinctEvents: 39, rollup: 39, rejected: 1 });
    const [rejected] = await rejectedRows(t, 'net');
    expect(rejected.reason).toMatch(/^storage refused the row: .*surrogate/);
    expect(Number(rejected.offset)).toBe(17);
    expect((JSON.parse(rejected.raw) as { event_id: string }).event_id).toBe(rows[17].event_id);
  });
});

describeKafka('poison values on Kafka (real broker protocol)', () => {
  const TOPIC = 'poison-events';
  let broker: KafkaBroker;
  let t: TestApp;
  beforeAll(async () => {
    broker = await startKafka({ [TOPIC]: 1, 'catalogue-documents': 1 });
    t = await startApp({
      KAFKA_BROKERS: broker.brokers,
      KAFKA_TOPIC_SEARCH_EVENTS: TOPIC,
      KAFKA_GROUP_ID: 'poison',
      KAFKA_SESSION_TIMEOUT_MS: '6000',
    });
  });
  afterAll(async () => {
    await t.close();
    await broker.stop();
  });

  it('rejects poison messages with their reason and keeps the partition moving', async () => {
    const base = { customer: 'kpoison', instance: 'live', language: 'en', hits: 1 };
    const values: Array<string | Buffer> = [
      JSON.stringify({ ...base, phrase: LONE }),
      // The UTF-8 bytes of a lone surrogate (CESU-8) are not valid UTF-8.
      Buffer.concat([
        Buffer.from('{"customer":"kpoison","instance":"live","language":"en","hits":1,"phrase":"a'),
        Buffer.from([0xed, 0xa0, 0xbd]),
        Buffer.from('"}'),
      ]),
      JSON.stringify({ ...base, phrase: 'nul\u0000' }),
      JSON.stringify({ ...base, phrase: MB.slice(0, 900_000) }),
      JSON.stringify({ ...base, phrase: 'ok', customer: `k${LONE}` }),
      JSON.stringify({ ...base, phrase: 'poison key', [LONE]: true }),
      ...Array.from({ length: 200 }, (_, i) => JSON.stringify({ ...base, phrase: `after poison ${i}` })),
    ];
    await broker.producer.send({ topic: TOPIC, acks: -1, messages: values.map((value) => ({ key: 'one', value })) });
    expect(await eventually(() => caughtUp(broker, 'poison', TOPIC), Boolean)).toBe(true);
    expect(await storedCounts(t, 'kpoison')).toEqual({ events: 200, distinctEvents: 200, rollup: 200, rejected: 5 });
    expect((await rejectedRows(t, 'kpoison')).map((r) => [Number(r.offset), r.reason])).toEqual([
      [0, 'phrase is not well-formed Unicode (a lone surrogate)'],
      [1, 'message is not valid UTF-8'],
      [2, 'phrase contains a NUL character'],
      [3, 'phrase is longer than 500 characters'],
      [5, 'unknown field a\ufffd'],
    ]);
    const ch = t.app.get(ClickHouseService);
    const [tenantless] = await ch.query<{ reason: string }>(
      `SELECT reason FROM ${ch.table('rejected_events')} WHERE offset = 4 AND topic = {t:String}`,
      { t: TOPIC },
    );
    expect(tenantless.reason).toBe('customer is required (a lower-case name)');
  }, 60_000);
});
