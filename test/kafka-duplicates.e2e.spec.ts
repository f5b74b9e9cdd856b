import { randomUUID } from 'node:crypto';
import { startApp, uniqueDatabase } from './support/test-app';
import { caughtUp, describeKafka, produceEvents, startKafka, type KafkaBroker } from './support/kafka';
import { eventually, storedCounts } from './support/storage';

const TOPIC = 'duplicated-events';

describeKafka('a message written twice to its partition (a producer retry after a lost ack)', () => {
  let broker: KafkaBroker;
  beforeAll(async () => {
    broker = await startKafka({ [TOPIC]: 1, 'catalogue-documents': 1 });
  });
  afterAll(() => broker.stop());

  it('stores an event id once within the window, across batches and across a restart of the consumer', async () => {
    const database = uniqueDatabase();
    const env = {
      KAFKA_BROKERS: broker.brokers,
      KAFKA_TOPIC_SEARCH_EVENTS: TOPIC,
      KAFKA_GROUP_ID: 'duplicates',
      KAFKA_SESSION_TIMEOUT_MS: '6000',
      CLICKHOUSE_DATABASE: database,
    };
    const events = Array.from({ length: 50 }, (_, i) => ({
      key: `k${i}`,
      value: JSON.stringify({ id: randomUUID(), customer: 'dup', instance: 'live', phrase: `dup ${i}`, language: 'en', hits: 1 }),
    }));
    let app = await startApp(env);
    await broker.producer.send({ topic: TOPIC, acks: -1, messages: events });
    await produceEvents(broker, TOPIC, 500, { customer: 'dup' }, 'between');
    await broker.producer.send({ topic: TOPIC, acks: -1, messages: events }); // the retry, 500 messages later
    await eventually(() => caughtUp(broker, 'duplicates', TOPIC), Boolean);
    expect(await storedCounts(app, 'dup')).toEqual({ events: 550, distinctEvents: 550, rollup: 550, rejected: 0 });
    await app.close();

    // A new owner of the partition learns the recent ids from ClickHouse.
    app = await startApp(env);
    try {
      await broker.producer.send({ topic: TOPIC, acks: -1, messages: events.slice(0, 10) });
      await eventually(() => caughtUp(broker, 'duplicates', TOPIC), Boolean);
      expect(await storedCounts(app, 'dup')).toEqual({ events: 550, distinctEvents: 550, rollup: 550, rejected: 0 });
    } finally {
      await app.close();
    }
  }, 90_000);
});
