import { ClickHouseService } from '@app/clickhouse';
import { freshDir, startService, type Service } from './support/processes';
import { caughtUp, describeKafka, mixedMessages, startKafka, type KafkaBroker } from './support/kafka';
import { eventually, storedCounts } from './support/storage';
import { startApp, type TestApp } from './support/test-app';
import { withTestStorage } from './support/storage-mode';

const TOPIC = 'mixed-events';
const STANDALONE = 'apps/standalone/src/main.js';

describeKafka('an ingest process killed between a batch’s search events and its interactions (real process, SIGKILL)', () => {
  let broker: KafkaBroker;
  let service: Service | undefined;
  beforeAll(async () => {
    broker = await startKafka({
      [`${TOPIC}-search_events`]: 2,
      [`${TOPIC}-interactions`]: 2,
      [`${TOPIC}-interactions-insights`]: 2,
      'catalogue-documents': 1,
    });
  });
  afterAll(async () => {
    await service?.stop();
    await broker.stop();
  });

  // Killed right after a batch's first insert into search_events returned (its interactions not sent), or into
  // interactions (the batch stored, not committed: the ledger must find its clicks in interactions); with Insights
  // events in the stream too (one message, several rows).
  it.each([
    ['search_events', false],
    ['interactions', false],
    ['interactions', true],
  ])(
    'stores every search, click and conversion exactly once after a kill after %s (Insights events: %s)',
    async (table, insights) => {
      const topic = `${TOPIC}-${table}${insights ? '-insights' : ''}`;
      const group = `crash-${table}${insights ? '-insights' : ''}`;
      const env = {
        DATA_DIR: freshDir('crash-mixed'),
        KAFKA_BROKERS: broker.brokers,
        KAFKA_TOPIC_SEARCH_EVENTS: topic,
        KAFKA_GROUP_ID: group,
        KAFKA_SESSION_TIMEOUT_MS: '6000',
        SERVICE_BASIC_AUTH: 'ops:crash-test-password',
      };
      const produce = (messages: Array<{ key: string; value: string }>) => broker.producer.send({ topic, acks: -1, messages });
      await produce(mixedMessages(0, 1500, { insights }));

      const crash = { CRASH_AFTER_INSERTS: '1', CRASH_AFTER_TABLE: table };
      service = await startService(STANDALONE, { ...env, ...crash }, 30_000, ['crash-after-insert.js']);
      const signal = await new Promise<NodeJS.Signals | null>((resolve) => {
        if (service!.child.exitCode !== null || service!.child.signalCode) {
          return resolve(service!.child.signalCode);
        }
        service!.child.once('exit', (_code, sig) => resolve(sig));
      });
      expect(signal).toBe('SIGKILL');
      await produce(mixedMessages(1500, 500, { insights }));

      service = await startService(STANDALONE, env);
      expect(await eventually(() => caughtUp(broker, group, topic), Boolean, 60_000)).toBe(true);
      expect(service.stdout()).toMatch(/offsets from \d+ to \d+ already stored; skipping them/);
      await service.stop();
      service = undefined;

      // 2,000 searches, 1,000 clicks (even n), 400 conversions (n a multiple of 5); with Insights events, 667 clicks
      // of two objects (n a multiple of 3) and 667 purchases (n % 3 = 1) too, each one offset. No interaction twice.
      const expected = insights ? [2334, 1067, 2734, 3401, 3401] : [1000, 400, 1400, 1400, 1400];
      const reader: TestApp = await startApp(withTestStorage({ DATA_DIR: env.DATA_DIR }));
      try {
        expect(await storedCounts(reader)).toEqual({ events: 2000, distinctEvents: 2000, rollup: 2000, rejected: 0 });
        const ch = reader.app.get(ClickHouseService);
        const [counts] = await ch.query<{ clicks: string; conversions: string; offsets: string; rows: string; identities: string }>(
          `SELECT countIf(type = 'click') AS clicks, countIf(type = 'conversion') AS conversions,
                uniqExact(partition, offset) AS offsets, count() AS rows,
                uniqExact(type, search_id, object_id, position, subtype, value, currency, ts, user_token_hash) AS identities
         FROM ${ch.table('interactions')} WHERE topic = {topic:String}`,
          { topic },
        );
        expect(Object.values(counts).map(Number)).toEqual(expected);
      } finally {
        await reader.close();
      }
    },
    120_000,
  );
});
