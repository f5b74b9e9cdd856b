import type { Consumer } from 'kafkajs';
import { ClickHouseService } from '@app/clickhouse';
import { IngestConsumer } from '@app/ingest';
import { startApp, uniqueDatabase, type TestApp } from './support/test-app';
import { caughtUp, describeKafka, produceEvents, startKafka, type KafkaBroker } from './support/kafka';
import { eventually, storedCounts } from './support/storage';

const TOPIC = 'rebalance-events';
const PARTITIONS = 4;

describeKafka('a rebalance while an insert is retried (real broker protocol)', () => {
  let broker: KafkaBroker;
  const apps: TestApp[] = [];
  beforeAll(async () => {
    broker = await startKafka({ [TOPIC]: PARTITIONS, 'catalogue-documents': 1 });
  });
  afterAll(async () => {
    for (const app of apps) {
      await app.close();
    }
    await broker.stop();
  });

  const start = async (group: string, database: string) => {
    const app = await startApp({
      KAFKA_BROKERS: broker.brokers,
      KAFKA_TOPIC_SEARCH_EVENTS: TOPIC,
      KAFKA_GROUP_ID: group,
      KAFKA_SESSION_TIMEOUT_MS: '6000',
      CLICKHOUSE_DATABASE: database,
    });
    apps.push(app);
    return app;
  };
  const assigned = (app: TestApp) => app.app.get(IngestConsumer).assignment()[TOPIC] ?? [];

  it('counts every event once and both consumers consume after storage comes back', async () => {
    const database = uniqueDatabase();
    const a = await start('rebalance', database);
    await eventually(
      () => assigned(a),
      (p) => p.length === PARTITIONS,
    );
    const ch = a.app.get(ClickHouseService);
    // Storage refuses every insert (as a server that is down would), while migrations of a new process still run.
    await ch.command(`ALTER TABLE ${ch.table('search_events')} ADD CONSTRAINT storage_down CHECK 0`);
    await produceEvents(broker, TOPIC, 2000, { customer: 'rebalance' }, 'during');
    await new Promise((r) => setTimeout(r, 2000)); // a's inserts fail and are retried, its fetching paused

    const b = await start('rebalance', database);
    const split = await eventually(
      () => [assigned(a), assigned(b)],
      ([x, y]) => x.length > 0 && y.length > 0 && x.length + y.length === PARTITIONS,
      40_000,
    );
    expect([...split[0], ...split[1]].sort()).toEqual([0, 1, 2, 3]);

    await ch.command(`ALTER TABLE ${ch.table('search_events')} DROP CONSTRAINT storage_down`);
    await produceEvents(broker, TOPIC, 2000, { customer: 'rebalance' }, 'after');
    // Every partition is consumed again, a's included (a pause that survived the rejoin would stop them for good).
    expect(await eventually(() => caughtUp(broker, 'rebalance', TOPIC), Boolean, 40_000)).toBe(true);
    expect(await storedCounts(a, 'rebalance')).toEqual({ events: 4000, distinctEvents: 4000, rollup: 4000, rejected: 0 });
    for (const app of [a, b]) {
      expect(await app.app.get(IngestConsumer).health(1000)).toMatchObject({ running: true, stalled: false, lag: 0 });
    }
  }, 120_000);

  it('reports a consumer stalled when an assigned partition has lag and is not fetched', async () => {
    const c = await start('stall', uniqueDatabase());
    await eventually(
      () => assigned(c),
      (p) => p.length === PARTITIONS,
    );
    await eventually(() => caughtUp(broker, 'stall', TOPIC), Boolean, 40_000);
    const consumer = c.app.get(IngestConsumer);
    // Caught up: the last batch's end (which reports its remaining lag) may follow the commit by a moment.
    expect(
      await eventually(
        () => consumer.health(1000),
        (h) => h.lag === 0,
      ),
    ).toMatchObject({ stalled: false, lag: 0 });
    // What a pause left behind looks like: the partitions are assigned but never fetched again.
    (consumer as unknown as { consumer: Consumer }).consumer.pause([{ topic: TOPIC }]);
    await produceEvents(broker, TOPIC, 100, { customer: 'stall' }, 'stall');
    const health = await eventually(
      () => consumer.health(1000),
      (h) => h.stalled,
      20_000,
    );
    expect(health).toMatchObject({ running: true, stalled: true });
    expect(health.lag).toBeGreaterThan(0);
  }, 90_000);
});
