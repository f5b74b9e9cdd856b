import { randomUUID } from 'node:crypto';
import { ClickHouseService } from '@app/clickhouse';
import { IntakeKinds, httpItems, isInteractionRow, validateItems } from '@app/intake';
import { LEGACY_SECRET, hmacHeaders, http, startApp, uniqueDatabase, type TestApp } from './support/test-app';
import { caughtUp, describeKafka, startKafka, type KafkaBroker } from './support/kafka';
import { eventually, onStoredTables, storedCounts } from './support/storage';

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

/**
 * What a process killed in the middle of an insert leaves (issue 43): ClickHouse writes the table, then each view, so
 * the request's raw rows may be stored while `intake_requests` (a view's table) has no record of them. The client's
 * retry must still not store them again: the check reads the raw tables.
 */
describe('a retry after a kill between the rows and their views (embedded transport)', () => {
  let t: TestApp;
  let ch: ClickHouseService;
  beforeAll(async () => {
    t = await startApp({ RATE_LIMIT_PER_MINUTE: '0' });
    ch = t.app.get(ClickHouseService);
  });
  afterAll(() => t.close());

  /**
   * Stores the search events of `events` as the intake would (with the request's token), and nothing else;
   * `compensated`: each with a row of sign -1 too (counted 0 times).
   */
  const plantSearchEvents = async (events: readonly unknown[], compensated = false) => {
    const kind = t.app.get(IntakeKinds).events;
    const token = kind.retryToken!('demo', 'live', events)!;
    const rows = validateItems(kind, httpItems('demo', 'live', events)).rows.filter((row) => !isInteractionRow(row));
    for (const row of rows) {
      kind.markRetry!(row, token);
    }
    // Through ClickHouseService.insert: its own deduplication token, like every insert of the intake.
    await ch.insert('search_events', rows, `planted:${randomUUID()}`);
    if (compensated) {
      await ch.insert(
        'search_events',
        rows.map((row) => ({ ...row, sign: -1 })),
        `compensation:${randomUUID()}`,
      );
    }
    // The views' record of it lost with the process.
    await onStoredTables(t, `TRUNCATE TABLE ${ch.table('intake_requests')}`);
    expect(await ch.query(`SELECT token FROM ${ch.table('intake_requests')}`)).toEqual([]);
    return rows.length;
  };
  const signs = (ids: readonly string[]) =>
    ch.query<{ id: string; sign: string }>(
      `SELECT toString(event_id) AS id, toString(sum(sign)) AS sign FROM ${ch.table('search_events')}
       WHERE event_id IN {ids:Array(UUID)} GROUP BY event_id ORDER BY id`,
      { ids: [...ids] },
    );
  const clicks = (searchId: string) =>
    ch.query<{ object_id: string }>(`SELECT object_id FROM ${ch.table('interactions')} WHERE search_id = {s:UUID} ORDER BY object_id`, {
      s: searchId,
    });
  const sendEvents = (events: readonly unknown[]) => send(t, JSON.stringify({ events }));

  it('does not store again a request whose rows were stored without their record in intake_requests', async () => {
    const events = [1, 2, 3].map((i) => ({ id: randomUUID(), phrase: `killed ${i}`, language: 'en', hits: i }));
    expect(await plantSearchEvents(events)).toBe(3);
    const retried = await sendEvents(events);
    expect([retried.status, retried.body]).toEqual([202, { accepted: 3, rejected: [] }]);
    const ids = events.map((e) => e.id).sort();
    expect(await signs(ids)).toEqual(ids.map((id) => ({ id, sign: '1' })));
  });

  it('stores the clicks of a request whose search events alone were stored, and the search events not again', async () => {
    const searchId = randomUUID();
    const events = [
      { id: searchId, phrase: 'killed with clicks', language: 'en', hits: 2 },
      { id: randomUUID(), phrase: 'killed with clicks too', language: 'en', hits: 0 },
      { id: randomUUID(), type: 'click', searchId, objectId: 'killed-1', position: 1 },
      { id: randomUUID(), type: 'conversion', searchId, objectId: 'killed-2' },
    ];
    expect(await plantSearchEvents(events)).toBe(2);
    const answers = [await sendEvents(events), await sendEvents(events)];
    for (const a of answers) {
      expect([a.status, a.body]).toEqual([202, { accepted: 4, rejected: [] }]);
    }
    const ids = [events[0].id, events[1].id].sort();
    expect(await signs(ids)).toEqual(ids.map((id) => ({ id, sign: '1' })));
    expect(await clicks(searchId)).toEqual([{ object_id: 'killed-1' }, { object_id: 'killed-2' }]);
  });

  it('does not store again a request whose rows were compensated to zero: its insert happened', async () => {
    const events = [1, 2].map((i) => ({ id: randomUUID(), phrase: `compensated ${i}`, language: 'en', hits: i }));
    await plantSearchEvents(events, true);
    const retried = await sendEvents(events);
    expect([retried.status, retried.body]).toEqual([202, { accepted: 2, rejected: [] }]);
    const ids = events.map((e) => e.id).sort();
    expect(await signs(ids)).toEqual(ids.map((id) => ({ id, sign: '0' })));
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
    await onStoredTables(a, `ALTER TABLE ${ch.table('intake_claims')} ADD CONSTRAINT no_acks CHECK state != 'acked'`);
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
      await onStoredTables(a, `ALTER TABLE ${ch.table('intake_claims')} DROP CONSTRAINT no_acks`);
    }
  }, 60_000);
});
