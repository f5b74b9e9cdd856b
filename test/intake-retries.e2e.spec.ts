import { randomUUID } from 'node:crypto';
import { ClickHouseService } from '@app/clickhouse';
import { LEGACY_SECRET, hmacHeaders, http, startApp, uniqueDatabase, type TestApp } from './support/test-app';
import { caughtUp, describeKafka, startKafka, type KafkaBroker } from './support/kafka';
import { eventually, storedCounts } from './support/storage';

type Answer = { accepted: number; rejected: Array<{ index: number; reason: string }> };

const request = (customerTag: string) => {
  const events = [1, 2, 3, 4].map((i) => ({ id: randomUUID(), phrase: `${customerTag} retry ${i}`, language: 'en', hits: 1 }));
  return JSON.stringify({ events: [...events, { id: randomUUID(), phrase: 'bad', language: 'en', hits: -1 }] });
};
const send = (t: TestApp, body: string) =>
  http<Answer>(`${t.url}/events`, { method: 'POST', headers: hmacHeaders(LEGACY_SECRET, body), body });
const expected = { accepted: 4, rejected: [{ index: 4, reason: 'hits must be an integer >= 0' }] };

describe('identical POST /events sent concurrently (embedded transport)', () => {
  it('counts the events of identical concurrent requests once', async () => {
    const t = await startApp({ RATE_LIMIT_PER_MINUTE: '0' });
    try {
      const body = request('embedded');
      const answers = await Promise.all(Array.from({ length: 5 }, () => send(t, body)));
      for (const a of answers) {
        expect([a.status, a.body]).toEqual([202, expected]);
      }
      expect(await storedCounts(t)).toEqual({ events: 4, distinctEvents: 4, rollup: 4, rejected: 1 });
    } finally {
      await t.close();
    }
  });
});

describeKafka('identical POST /events sent concurrently (Kafka transport, two processes)', () => {
  const TOPIC = 'retried-events';
  let broker: KafkaBroker;
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    broker = await startKafka({ [TOPIC]: 4, 'catalogue-documents': 1 });
    const database = uniqueDatabase();
    const env = {
      KAFKA_BROKERS: broker.brokers,
      KAFKA_TOPIC_SEARCH_EVENTS: TOPIC,
      KAFKA_GROUP_ID: 'retried',
      KAFKA_SESSION_TIMEOUT_MS: '6000',
      CLICKHOUSE_DATABASE: database,
      RATE_LIMIT_PER_MINUTE: '0',
    };
    a = await startApp(env);
    b = await startApp(env);
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    await broker.stop();
  });

  it('produces identical concurrent requests to two processes once, and answers each with the outcome', async () => {
    const body = request('kafka');
    const answers = await Promise.all([a, b, a, b, a, b].map((t) => send(t, body)));
    for (const answer of answers) {
      expect([answer.status, answer.body]).toEqual([202, expected]);
    }
    await eventually(() => caughtUp(broker, 'retried', TOPIC), Boolean);
    const counts = await eventually(
      () => storedCounts(a),
      (c) => c.events >= 4,
    );
    await new Promise((r) => setTimeout(r, 500));
    expect(await storedCounts(a)).toEqual({ ...counts, events: 4, distinctEvents: 4, rollup: 4, rejected: 1 });
  }, 60_000);

  it('answers 202 once the broker acknowledged, even when recording the acknowledgement fails', async () => {
    const ch = a.app.get(ClickHouseService);
    await ch.command(`ALTER TABLE ${ch.table('intake_claims')} ADD CONSTRAINT no_acks CHECK state != 'acked'`);
    try {
      const before = (await storedCounts(a)).events;
      const res = await send(a, request('ack lost'));
      expect([res.status, res.body]).toEqual([202, expected]);
      expect(
        (
          await eventually(
            () => storedCounts(a),
            (c) => c.events >= before + 4,
          )
        ).events,
      ).toBe(before + 4);
    } finally {
      await ch.command(`ALTER TABLE ${ch.table('intake_claims')} DROP CONSTRAINT no_acks`);
    }
  }, 60_000);
});
