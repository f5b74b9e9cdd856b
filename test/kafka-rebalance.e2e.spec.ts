import type { Consumer } from 'kafkajs';
import { ClickHouseService } from '@app/clickhouse';
import { IngestConsumer } from '@app/ingest';
import { startApp, uniqueDatabase, type TestApp } from './support/test-app';
import { caughtUp, describeKafka, interactionRows, mixedMessages, produceEvents, startKafka, type KafkaBroker } from './support/kafka';
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
  /** The first member of `group`, once it holds every partition. */
  const startFirst = async (group: string, database: string) => {
    const a = await start(group, database);
    await eventually(
      () => assigned(a),
      (p) => p.length === PARTITIONS,
    );
    return a;
  };
  /** A second member of `group`, once the partitions are split between it and `a`. */
  const startSecond = async (group: string, database: string, a: TestApp) => {
    const b = await start(group, database);
    const split = await eventually(
      () => [assigned(a), assigned(b)],
      ([x, y]) => x.length > 0 && y.length > 0 && x.length + y.length === PARTITIONS,
      40_000,
    );
    expect([...split[0], ...split[1]].sort()).toEqual([0, 1, 2, 3]);
    return b;
  };

  it('counts every event once and both consumers consume after storage comes back', async () => {
    const database = uniqueDatabase();
    const a = await startFirst('rebalance', database);
    const ch = a.app.get(ClickHouseService);
    // Storage refuses every insert (as a server that is down would), while migrations of a new process still run.
    await ch.command(`ALTER TABLE ${ch.table('search_events')} ADD CONSTRAINT storage_down CHECK 0`);
    await produceEvents(broker, TOPIC, 2000, { customer: 'rebalance' }, 'during');
    await new Promise((r) => setTimeout(r, 2000)); // a's inserts fail and are retried, its fetching paused

    const b = await startSecond('rebalance', database, a);

    await ch.command(`ALTER TABLE ${ch.table('search_events')} DROP CONSTRAINT storage_down`);
    await produceEvents(broker, TOPIC, 2000, { customer: 'rebalance' }, 'after');
    // Every partition is consumed again, a's included (a pause that survived the rejoin would stop them for good).
    expect(await eventually(() => caughtUp(broker, 'rebalance', TOPIC), Boolean, 40_000)).toBe(true);
    expect(await storedCounts(a, 'rebalance')).toEqual({ events: 4000, distinctEvents: 4000, rollup: 4000, rejected: 0 });
    for (const app of [a, b]) {
      expect(await app.app.get(IngestConsumer).health(1000)).toMatchObject({ running: true, stalled: false, lag: 0 });
    }
  }, 120_000);

  it('stores every click, conversion and Insights event once when partitions move (while inserts are retried, and back)', async () => {
    const database = uniqueDatabase();
    const a = await startFirst('moves', database);
    const ch = a.app.get(ClickHouseService);
    const produced: Array<{ key: string; value: string }> = [];
    const produce = async (from: number, count: number) => {
      const messages = mixedMessages(from, count, { customer: 'moves', insights: true });
      produced.push(...messages);
      await broker.producer.send({ topic: TOPIC, acks: -1, messages });
    };
    // Storage refuses every insert into interactions: a batch's search events land, its interactions are retried.
    await ch.command(`ALTER TABLE ${ch.table('interactions')} ADD CONSTRAINT storage_down CHECK 0`);
    await produce(0, 600);
    await new Promise((r) => setTimeout(r, 2000));

    const b = await startSecond('moves', database, a);
    await produce(600, 300);
    await ch.command(`ALTER TABLE ${ch.table('interactions')} DROP CONSTRAINT storage_down`);
    await produce(900, 300);
    // b leaves while it stores them: its partitions move back to a.
    apps.splice(apps.indexOf(b), 1);
    await b.close();
    await eventually(
      () => assigned(a),
      (p) => p.length === PARTITIONS,
      40_000,
    );
    await produce(1200, 300);
    expect(await eventually(() => caughtUp(broker, 'moves', TOPIC), Boolean, 60_000)).toBe(true);

    // Every interaction once: by its identity, by its offset (an Insights event's objects apart), and its message once.
    const rows = produced.reduce((sum, m) => sum + interactionRows(m), 0);
    const messages = produced.filter((m) => interactionRows(m) > 0).length;
    const [counts] = await ch.query<Record<string, string>>(
      `SELECT count() AS rows, uniqExact(type, search_id, object_id, position, subtype, value, currency, ts, user_token_hash) AS identities,
              uniqExact(partition, offset, object_index) AS objects, uniqExact(partition, offset) AS messages
       FROM ${ch.table('interactions')} WHERE customer = 'moves'`,
    );
    expect(Object.values(counts).map(Number)).toEqual([rows, rows, rows, messages]);
    expect(await storedCounts(a, 'moves')).toEqual({ events: 1500, distinctEvents: 1500, rollup: 1500, rejected: 0 });
  }, 180_000);

  it('reports a consumer stalled when an assigned partition has lag and is not fetched', async () => {
    const c = await startFirst('stall', uniqueDatabase());
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
