import { randomUUID } from 'node:crypto';
import { ClickHouseService } from '@app/clickhouse';
import { validateDocument } from '@app/contracts';
import { IngestStore, IntakeKinds } from '@app/intake';
import { IngestConsumer } from '@app/ingest';
import { LEGACY_SECRET, basicHeader, hmacHeaders, http, startApp, uniqueDatabase, type TestApp } from './support/test-app';
import { caughtUp, describeKafka, produceEvents, startKafka, type KafkaBroker } from './support/kafka';
import { eventually, onStoredTables, storedCounts } from './support/storage';

const TOPIC = 'search-events';
const PARTITIONS = 4;

describeKafka('Kafka ingest into ClickHouse (composition app with KAFKA_BROKERS, real broker protocol)', () => {
  let broker: KafkaBroker;
  beforeAll(async () => {
    broker = await startKafka({ [TOPIC]: PARTITIONS, reformed: 1, 'catalogue-documents': 2, 'docs-redelivered': 1 });
  });
  afterAll(() => broker.stop());

  const kafkaEnv = (group: string) => ({
    KAFKA_BROKERS: broker.brokers,
    KAFKA_TOPIC_SEARCH_EVENTS: TOPIC,
    KAFKA_GROUP_ID: group,
    KAFKA_SESSION_TIMEOUT_MS: '6000',
  });

  describe('one consumer', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startApp(kafkaEnv('single'));
    });
    afterAll(() => t.close());

    it('stores events produced to the broker exactly once, rollup included', async () => {
      await produceEvents(broker, TOPIC, 5000, { customer: 'once' });
      const counts = await eventually(
        () => storedCounts(t, 'once'),
        // The raw rows and the rollup together: a read during an insert may see its raw part before its views' parts.
        (c) => c.events >= 5000 && c.rollup >= 5000,
      );
      expect(counts).toEqual({ events: 5000, distinctEvents: 5000, rollup: 5000, rejected: 0 });
      await eventually(() => caughtUp(broker, 'single', TOPIC), Boolean);
      expect(await storedCounts(t, 'once')).toEqual({ events: 5000, distinctEvents: 5000, rollup: 5000, rejected: 0 });
      // Caught up: the consume loop is healthy and nothing waits.
      expect(await t.app.get(IngestConsumer).health()).toMatchObject({ running: true, stalled: false, lag: 0 });
    });

    it('keeps poison messages in rejected_events with their reason and ingests the good ones of the batch', async () => {
      const base = { customer: 'poison', instance: 'live', language: 'en', hits: 1 };
      const poison = [
        'this is not json',
        JSON.stringify({ ...base, phrase: undefined }),
        JSON.stringify({ ...base, phrase: 'negative', hits: -1 }),
        JSON.stringify({ ...base, phrase: 'future', ts: Date.now() + 60 * 60 * 1000 }),
        JSON.stringify({ ...base, phrase: 'x'.repeat(10 * 1024) }),
        JSON.stringify({ ...base, phrase: 'bad filter', filters: ['price<=cheap'] }),
        JSON.stringify({ ...base, phrase: 'bad user', userToken: '' }),
        JSON.stringify({ ...base, phrase: 'bad country', country: 'DEU' }),
        JSON.stringify({ ...base, phrase: 'bad tags', tags: ['a OR b'] }),
      ];
      const good = Array.from({ length: 10 }, (_, i) => JSON.stringify({ ...base, phrase: `good ${i}` }));
      // One key: all in one partition, so poison and good messages share batches.
      await broker.producer.send({ topic: TOPIC, acks: -1, messages: [...poison, ...good].map((value) => ({ key: 'same', value })) });
      await eventually(
        () => storedCounts(t, 'poison'),
        (c) => c.events >= 10,
      );
      const ch = t.app.get(ClickHouseService);
      const rejected = await eventually(
        () =>
          ch.query<{ reason: string; topic: string; partition: number; offset: string | number; raw: string }>(
            `SELECT reason, topic, partition, offset, raw FROM ${ch.table('rejected_events')}
           WHERE raw LIKE '%poison%' OR raw = 'this is not json' ORDER BY offset`,
          ),
        (rows) => rows.length >= 9,
      );
      expect(rejected.map((r) => r.reason)).toEqual([
        'not JSON',
        'phrase is required (a string)',
        'hits must be an integer >= 0',
        'ts is more than 5 minutes in the future',
        'phrase is longer than 500 characters',
        expect.stringMatching(/^filters\[0\]'s value must be a finite number/),
        'userToken must be a string of 1 to 129 characters',
        expect.stringMatching(/^country must be two letters/),
        expect.stringMatching(/^tags\[0\] contains "AND" or "OR" between spaces/),
      ]);
      expect(rejected[0].raw).toBe('this is not json');
      expect(new Set(rejected.map((r) => r.topic))).toEqual(new Set([TOPIC]));
      expect(new Set(rejected.map((r) => r.partition)).size).toBe(1);
      const offsets = rejected.map((r) => Number(r.offset));
      expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
      expect((await storedCounts(t, 'poison')).events).toBe(10);
    });

    it('keeps every event once when ClickHouse fails for a while', async () => {
      const ch = t.app.get(ClickHouseService);
      await ch.command(`DETACH TABLE ${ch.table('search_events')} SYNC`);
      await produceEvents(broker, TOPIC, 2000, { customer: 'outage' }, 'outage');
      await new Promise((r) => setTimeout(r, 3000)); // inserts fail and are retried meanwhile
      // The consume loop reports itself stalled while messages wait (60 s in production, 1 s here).
      expect(await t.app.get(IngestConsumer).health(1000)).toMatchObject({ running: true, stalled: true });
      await ch.command(`ATTACH TABLE ${ch.table('search_events')}`);
      const attachedAt = Date.now();
      const counts = await eventually(
        () => storedCounts(t, 'outage'),
        (c) => c.events >= 2000,
        40_000,
      );
      process.stderr.write(`storage outage: all 2000 events stored ${Date.now() - attachedAt} ms after storage came back\n`);
      await eventually(() => caughtUp(broker, 'single', TOPIC), Boolean);
      expect(await storedCounts(t, 'outage')).toEqual({ events: 2000, distinctEvents: 2000, rollup: 2000, rejected: 0 });
      expect(counts.events).toBe(2000);
    });

    it('ingests catalogue documents from their topic; the latest write of an id wins', async () => {
      const doc = (id: string, rating: number | string) => ({
        key: id,
        value: JSON.stringify({ customer: 'demo', instance: 'live', id, rating }),
      });
      await broker.producer.send({
        topic: 'catalogue-documents',
        acks: -1,
        messages: [doc('k1', 0.2), doc('k2', 0.2), doc('k1', 0.9), doc('k3', 'high')],
      });
      const check = async () =>
        (await http<Record<string, unknown>>(`${t.url}/ranking-mix-config/check-data`, { headers: basicHeader() })).body.rating;
      expect(await eventually(check, (r) => JSON.stringify(r) === JSON.stringify({ result: true }))).toEqual({ result: true });
      const body = JSON.stringify({ documents: [{ id: 'k1', rating: 0.2 }] });
      expect((await http(`${t.url}/documents`, { method: 'PUT', headers: hmacHeaders(LEGACY_SECRET, body), body })).status).toBe(202);
      expect(await eventually(check, (r) => JSON.stringify(r) !== JSON.stringify({ result: true }))).toEqual({
        result: false,
        reasons: ['No ranking mix data.'],
      });
      const ch = t.app.get(ClickHouseService);
      const rejected = await ch.query<{ reason: string; kind: string }>(
        `SELECT reason, kind FROM ${ch.table('rejected_events')} WHERE kind = 'document'`,
      );
      expect(rejected).toEqual([{ reason: 'rating must be a number or null', kind: 'document' }]);
    });

    it("orders writes of one document by their offsets, whatever the producers' clocks say", async () => {
      // The second write comes from a producer whose clock is an hour behind: it is still the later write.
      const now = Date.now();
      const doc = (rating: number, timestamp: number) => ({
        key: 'clock-doc',
        value: JSON.stringify({ customer: 'clocks', instance: 'live', id: 'clock-doc', rating }),
        timestamp: String(timestamp),
      });
      await broker.producer.send({ topic: 'catalogue-documents', acks: -1, messages: [doc(0.9, now)] });
      await broker.producer.send({ topic: 'catalogue-documents', acks: -1, messages: [doc(0.1, now - 3_600_000)] });
      const ch = t.app.get(ClickHouseService);
      const current = () =>
        ch.query<{ rating: number; n: string }>(
          `SELECT argMax(rating, version) AS rating, count() AS n FROM ${ch.table('documents')}
         WHERE customer = 'clocks' AND id = 'clock-doc'`,
        );
      // Both writes consumed (they may share one insert, which keeps only the later row of the document).
      await eventually(() => caughtUp(broker, 'single', 'catalogue-documents'), Boolean);
      const [latest] = await current();
      expect(latest.rating).toBe(0.1);
    });

    it('produces POST /events to Kafka and answers after the ack', async () => {
      const body = JSON.stringify({
        events: [
          { phrase: 'via kafka', language: 'en', hits: 2 },
          { phrase: 'bad', language: 'en', hits: -1 },
        ],
      });
      const res = await http(`${t.url}/events`, { method: 'POST', headers: hmacHeaders(LEGACY_SECRET, body), body });
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ accepted: 1, rejected: [{ index: 1, reason: 'hits must be an integer >= 0' }] });
      const counts = await eventually(
        () => storedCounts(t),
        (c) => c.events >= 1 && c.rollup >= 1 && c.rejected >= 1,
      );
      expect(counts).toMatchObject({ events: 1, rollup: 1, rejected: 1 });
    });

    it('does not count a retried POST /events twice over Kafka when its events carry ids', async () => {
      const events = [1, 2, 3].map((i) => ({ id: randomUUID(), phrase: `kafka retry ${i}`, language: 'en', hits: 1 }));
      const body = JSON.stringify({ events });
      const before = (await storedCounts(t)).events;
      for (let attempt = 0; attempt < 2; attempt++) {
        const res = await http(`${t.url}/events`, { method: 'POST', headers: hmacHeaders(LEGACY_SECRET, body), body });
        expect(res.body).toEqual({ accepted: 3, rejected: [] });
      }
      await eventually(() => caughtUp(broker, 'single', TOPIC), Boolean);
      await new Promise((r) => setTimeout(r, 500));
      expect((await storedCounts(t)).events - before).toBe(3);
    });
  });

  it('splits the partitions between two consumers of one group and counts exactly', async () => {
    const database = uniqueDatabase();
    const a = await startApp({ ...kafkaEnv('pair'), CLICKHOUSE_DATABASE: database });
    const b = await startApp({ ...kafkaEnv('pair'), CLICKHOUSE_DATABASE: database });
    try {
      const assigned = () => [a, b].map((x) => x.app.get(IngestConsumer).assignment()[TOPIC] ?? []);
      const split = await eventually(
        () => assigned(),
        ([x, y]) => x.length > 0 && y.length > 0 && x.length + y.length === PARTITIONS,
        30_000,
      );
      expect([...split[0], ...split[1]].sort()).toEqual([0, 1, 2, 3]);
      await produceEvents(broker, TOPIC, 4000, { customer: 'pair' }, 'pair');
      await eventually(() => caughtUp(broker, 'pair', TOPIC), Boolean, 40_000);
      expect(await storedCounts(a, 'pair')).toEqual({ events: 4000, distinctEvents: 4000, rollup: 4000, rejected: 0 });
    } finally {
      await a.close();
      await b.close();
    }
  }, 120_000);

  it('keeps the latest write of a document when older writes are re-delivered after a merge removed their rows', async () => {
    const value = (rating: number) => JSON.stringify({ customer: 'merged', instance: 'live', id: 'merged', rating });
    const database = uniqueDatabase();
    // What a consumer that stored offsets 0 (rating 0.9) and 1 (0.1), then died before committing, leaves behind;
    // then a merge keeps only the latest version of the document.
    const before = await startApp({ CLICKHOUSE_DATABASE: database });
    const now = Date.now();
    const rows = [0.9, 0.1].map((rating, offset) => {
      const r = validateDocument(JSON.parse(value(rating)), {
        source: 'kafka',
        now,
        topic: 'docs-redelivered',
        partition: 0,
        offset,
        version: String(BigInt(now) * 1_000_000n + BigInt(offset)),
      });
      if (!r.ok) {
        throw new Error(r.reason);
      }
      return r.row;
    });
    const store = before.app.get(IngestStore);
    const { documents } = before.app.get(IntakeKinds);
    await store.store(documents, [rows[0]], [], 'docs-redelivered:0:0-0');
    await store.store(documents, [rows[1]], [], 'docs-redelivered:0:1-1');
    const ch = before.app.get(ClickHouseService);
    await onStoredTables(before, `OPTIMIZE TABLE ${ch.table('documents')} FINAL`);
    expect(await ch.query(`SELECT offset FROM ${ch.table('documents')} WHERE customer = 'merged'`)).toEqual([{ offset: 1 }]);
    await before.close();

    // Re-delivered in one batch (other boundaries, so no insert token matches), with timestamps older than stored.
    await broker.producer.send({
      topic: 'docs-redelivered',
      acks: -1,
      messages: [0.9, 0.1].map((rating) => ({ key: 'merged', value: value(rating), timestamp: String(now - 60_000) })),
    });
    const after = await startApp({ ...kafkaEnv('docs-again'), KAFKA_TOPIC_DOCUMENTS: 'docs-redelivered', CLICKHOUSE_DATABASE: database });
    try {
      await eventually(() => caughtUp(broker, 'docs-again', 'docs-redelivered'), Boolean);
      const ach = after.app.get(ClickHouseService);
      const [latest] = await ach.query<{ rating: number }>(
        `SELECT argMax(rating, version) AS rating FROM ${ach.table('documents')} WHERE customer = 'merged'`,
      );
      expect(latest.rating).toBe(0.1);
    } finally {
      await after.close();
    }
  }, 60_000);

  it('skips rows a killed consumer stored when the retry is fetched with other boundaries', async () => {
    const values = Array.from({ length: 300 }, (_, i) =>
      JSON.stringify({ customer: 'reformed', instance: 'live', phrase: `r${i}`, language: 'en', hits: 1 }),
    );
    await broker.producer.send({ topic: 'reformed', acks: -1, messages: values.map((value) => ({ value })) });
    const database = uniqueDatabase();
    // What a consumer killed after inserting offsets 0-99, before committing, leaves behind.
    const before = await startApp({ CLICKHOUSE_DATABASE: database });
    const { events } = before.app.get(IntakeKinds);
    const rows = values.slice(0, 100).map((value, offset) => {
      const r = events.validate(JSON.parse(value), { now: Date.now(), source: 'kafka', topic: 'reformed', partition: 0, offset });
      if (!r.ok) {
        throw new Error(r.reason);
      }
      return r.row;
    });
    await before.app.get(IngestStore).store(events, rows, [], 'reformed:0:0-99');
    await before.close();

    // The restarted consumer has no commit and fetches 0-299 in one batch: token reformed:0:0-299 dedups nothing.
    const after = await startApp({ ...kafkaEnv('reformed'), KAFKA_TOPIC_SEARCH_EVENTS: 'reformed', CLICKHOUSE_DATABASE: database });
    try {
      await eventually(() => caughtUp(broker, 'reformed', 'reformed'), Boolean);
      expect(await storedCounts(after, 'reformed')).toEqual({ events: 300, distinctEvents: 300, rollup: 300, rejected: 0 });
    } finally {
      await after.close();
    }
  }, 60_000);
});
