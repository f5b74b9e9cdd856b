import { startApp, uniqueDatabase } from './support/test-app';
import { caughtUp, describeKafka, produceEvents, startKafka } from './support/kafka';
import { eventually, storedCounts } from './support/storage';

const TOPIC = 'recreated-events';

describeKafka('offsets of a recreated topic (a fresh cluster against the same data)', () => {
  it('stores the new messages at offsets the old topic already used', async () => {
    const database = uniqueDatabase();
    const env = (brokers: string) => ({
      KAFKA_BROKERS: brokers,
      KAFKA_TOPIC_SEARCH_EVENTS: TOPIC,
      KAFKA_GROUP_ID: 'recreated',
      KAFKA_SESSION_TIMEOUT_MS: '6000',
      CLICKHOUSE_DATABASE: database,
    });

    const old = await startKafka({ [TOPIC]: 1, 'catalogue-documents': 1 });
    let app = await startApp(env(old.brokers));
    await produceEvents(old, TOPIC, 300, { customer: 'recreated' }, 'old');
    await eventually(() => caughtUp(old, 'recreated', TOPIC), Boolean);
    expect(await storedCounts(app, 'recreated')).toMatchObject({ events: 300 });
    await app.close();
    await old.stop();

    // The same topic name on a new cluster: offsets 0-199 again, with other messages.
    const fresh = await startKafka({ [TOPIC]: 1, 'catalogue-documents': 1 });
    try {
      await produceEvents(fresh, TOPIC, 200, { customer: 'recreated', phrase: 'new incarnation' }, 'new');
      app = await startApp(env(fresh.brokers));
      expect(await eventually(() => caughtUp(fresh, 'recreated', TOPIC), Boolean)).toBe(true);
      expect(await storedCounts(app, 'recreated')).toEqual({ events: 500, distinctEvents: 500, rollup: 500, rejected: 0 });
      await app.close();
    } finally {
      await fresh.stop();
    }
  }, 90_000);
});
