import { randomUUID } from 'node:crypto';
import { ClickHouseService } from '@app/clickhouse';
import { LEGACY_SECRET, hmacHeaders, http, startApp, type TestApp } from './support/test-app';
import { caughtUp, describeKafka, startKafka, type KafkaBroker } from './support/kafka';
import { eventually, storedCounts } from './support/storage';

type Answer = { accepted: number; rejected: Array<{ index: number; reason: string }> };

/** Clicks and conversions through Kafka: POST /events on the Kafka transport, and producers writing to the topic. */
describeKafka('clicks and conversions on the Kafka transport and in the ingest app', () => {
  const TOPIC = 'interaction-events';
  const GROUP = 'interactions';
  let broker: KafkaBroker;
  let t: TestApp;
  let ch: ClickHouseService;
  beforeAll(async () => {
    broker = await startKafka({ [TOPIC]: 3, 'catalogue-documents': 1 });
    t = await startApp({
      KAFKA_BROKERS: broker.brokers,
      KAFKA_TOPIC_SEARCH_EVENTS: TOPIC,
      KAFKA_GROUP_ID: GROUP,
      KAFKA_SESSION_TIMEOUT_MS: '6000',
      RATE_LIMIT_PER_MINUTE: '0',
    });
    ch = t.app.get(ClickHouseService);
  });
  afterAll(async () => {
    await t?.close();
    await broker?.stop();
  });

  const send = (events: unknown[]) => {
    const body = JSON.stringify({ events });
    return http<Answer>(`${t.url}/events`, { method: 'POST', headers: hmacHeaders(LEGACY_SECRET, body), body });
  };
  const interactions = (prefix: string) =>
    ch.query<{ object_id: string; type: string; search_id: string; source: string; origin: string }>(
      `SELECT object_id, type, toString(search_id) AS search_id, source, origin FROM ${ch.table('interactions')}
       WHERE startsWith(object_id, {p:String}) ORDER BY object_id`,
      { p: prefix },
    );
  const settled = async (prefix: string, count: number) => {
    await eventually(() => caughtUp(broker, GROUP, TOPIC), Boolean);
    await eventually(
      () => interactions(prefix),
      (rows) => rows.length >= count,
    );
    await new Promise((r) => setTimeout(r, 500));
    return interactions(prefix);
  };

  it('produces the interactions of a mixed request, which the ingest app stores once, also when the request is retried', async () => {
    const searchId = randomUUID();
    const events = [
      { id: searchId, phrase: 'kafka mixed', language: 'en', hits: 3 },
      { id: randomUUID(), type: 'click', searchId: searchId.replaceAll('-', ''), objectId: 'kafka-1', position: 1 },
      { id: randomUUID(), type: 'conversion', objectId: 'kafka-2', subtype: 'addToCart' },
      { id: randomUUID(), type: 'click', searchId, objectId: 'kafka-bad', position: 0 },
    ];
    const before = await storedCounts(t);
    const expected = { accepted: 3, rejected: [{ index: 3, reason: 'position must be an integer from 1 to 65535' }] };
    for (const answer of [await send(events), await send(events)]) {
      expect([answer.status, answer.body]).toEqual([202, expected]);
    }
    expect(await settled('kafka-', 2)).toEqual([
      { object_id: 'kafka-1', type: 'click', search_id: searchId, source: 'kafka', origin: 'events' },
      { object_id: 'kafka-2', type: 'conversion', search_id: '00000000-0000-0000-0000-000000000000', source: 'kafka', origin: 'events' },
    ]);
    expect((await storedCounts(t)).events - before.events).toBe(1);
    const [kept] = await ch.query<{ kind: string; n: string }>(
      `SELECT any(kind) AS kind, count() AS n FROM ${ch.table('rejected_events')} WHERE position(raw, 'kafka-bad') > 0`,
    );
    expect([kept.kind, Number(kept.n)]).toEqual(['interaction', 1]);
  }, 60_000);

  it('stores id_sent false for a search whose id the intake generated, true for one the client sent', async () => {
    const id = randomUUID();
    expect(
      (
        await send([
          { id, phrase: 'kafka sent id', language: 'en', hits: 1 },
          { phrase: 'kafka generated id', language: 'en', hits: 1 },
        ])
      ).status,
    ).toBe(202);
    const rows = await eventually(
      () =>
        ch.query<{ phrase: string; id_sent: boolean }>(
          `SELECT phrase, id_sent FROM ${ch.table('search_events')}
           WHERE startsWith(phrase, 'kafka ') AND phrase LIKE '%id' ORDER BY phrase`,
        ),
      (r) => r.length >= 2,
    );
    expect(rows).toEqual([
      { phrase: 'kafka generated id', id_sent: false },
      { phrase: 'kafka sent id', id_sent: true },
    ]);
  }, 60_000);

  it('stores what producers write to the topic: a click repeated by a producer retry once, a click id apart from a search id', async () => {
    const shared = randomUUID();
    const base = { customer: 'demo', instance: 'live' };
    const messages = [
      { ...base, id: shared, phrase: 'producer search', language: 'en', hits: 2 },
      { ...base, id: shared, type: 'click', searchId: shared, objectId: 'producer-1', position: 2 },
      { ...base, id: shared, type: 'click', searchId: shared, objectId: 'producer-1', position: 2 },
      { ...base, type: 'conversion', searchId: shared, objectId: 'producer-2', value: 10, currency: 'EUR', ts: Date.now() - 1000 },
    ];
    await broker.producer.send({
      topic: TOPIC,
      acks: -1,
      messages: messages.map((m) => ({ key: 'one-session', value: JSON.stringify(m) })),
    });
    expect((await settled('producer-', 2)).map((r) => [r.object_id, r.type, r.search_id])).toEqual([
      ['producer-1', 'click', shared],
      ['producer-2', 'conversion', shared],
    ]);
    const [search] = await ch.query<{ n: string }>(
      `SELECT count() AS n FROM ${ch.table('search_events')} WHERE event_id = {id:UUID} AND id_sent`,
      { id: shared },
    );
    expect(Number(search.n)).toBe(1);
  }, 60_000);
});
