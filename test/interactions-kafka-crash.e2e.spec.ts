import { randomUUID } from 'node:crypto';
import { ClickHouseService } from '@app/clickhouse';
import { freshDir, startService, type Service } from './support/processes';
import { caughtUp, describeKafka, startKafka, type KafkaBroker } from './support/kafka';
import { eventually, storedCounts } from './support/storage';
import { startApp, type TestApp } from './support/test-app';

const TOPIC = 'mixed-events';
const STANDALONE = 'apps/standalone/src/main.js';

/** Searches with ids, and after every second one a click on it, after every fifth a conversion. */
function mixedMessages(from: number, count: number): Array<{ key: string; value: string }> {
  const messages: Array<{ key: string; value: string }> = [];
  for (let n = from; n < from + count; n++) {
    const base = { customer: 'demo', instance: 'live' };
    const id = randomUUID();
    messages.push({ key: `s-${n}`, value: JSON.stringify({ ...base, id, phrase: `term ${n % 31}`, language: 'en', hits: 1 }) });
    if (n % 2 === 0) {
      const click = { ...base, id: randomUUID(), type: 'click', searchId: id, objectId: `p-${n}`, position: 1 + (n % 7) };
      messages.push({ key: `s-${n}`, value: JSON.stringify(click) });
    }
    if (n % 5 === 0) {
      messages.push({
        key: `s-${n}`,
        value: JSON.stringify({ ...base, type: 'conversion', searchId: id, objectId: `p-${n}`, ts: Date.now() }),
      });
    }
  }
  return messages;
}

describeKafka('an ingest process killed between a batch’s search events and its interactions (real process, SIGKILL)', () => {
  let broker: KafkaBroker;
  let service: Service | undefined;
  beforeAll(async () => {
    broker = await startKafka({ [`${TOPIC}-search_events`]: 2, [`${TOPIC}-interactions`]: 2, 'catalogue-documents': 1 });
  });
  afterAll(async () => {
    await service?.stop();
    await broker.stop();
  });

  // Killed right after a batch's first insert into search_events returned (its interactions not sent), or into
  // interactions (the batch stored, not committed: the ledger must find its clicks in interactions).
  it.each(['search_events', 'interactions'])(
    'stores every search, click and conversion exactly once after a kill after %s',
    async (table) => {
      const topic = `${TOPIC}-${table}`;
      const env = {
        DATA_DIR: freshDir('crash-mixed'),
        KAFKA_BROKERS: broker.brokers,
        KAFKA_TOPIC_SEARCH_EVENTS: topic,
        KAFKA_GROUP_ID: `crash-${table}`,
        KAFKA_SESSION_TIMEOUT_MS: '6000',
        SERVICE_BASIC_AUTH: 'ops:crash-test-password',
      };
      const produce = (messages: Array<{ key: string; value: string }>) => broker.producer.send({ topic, acks: -1, messages });
      await produce(mixedMessages(0, 1500));

      const crash = { CRASH_AFTER_INSERTS: '1', CRASH_AFTER_TABLE: table };
      service = await startService(STANDALONE, { ...env, ...crash }, 30_000, ['crash-after-insert.js']);
      const signal = await new Promise<NodeJS.Signals | null>((resolve) => {
        if (service!.child.exitCode !== null || service!.child.signalCode) {
          return resolve(service!.child.signalCode);
        }
        service!.child.once('exit', (_code, sig) => resolve(sig));
      });
      expect(signal).toBe('SIGKILL');
      await produce(mixedMessages(1500, 500));

      service = await startService(STANDALONE, env);
      expect(await eventually(() => caughtUp(broker, `crash-${table}`, topic), Boolean, 60_000)).toBe(true);
      expect(service.stdout()).toMatch(/offsets from \d+ to \d+ already stored; skipping them/);
      await service.stop();
      service = undefined;

      // 2,000 searches, 1,000 clicks (even n), 400 conversions (n a multiple of 5).
      const reader: TestApp = await startApp({ DATA_DIR: env.DATA_DIR, CLICKHOUSE_DATABASE: 'search_analytics' });
      try {
        expect(await storedCounts(reader)).toEqual({ events: 2000, distinctEvents: 2000, rollup: 2000, rejected: 0 });
        const ch = reader.app.get(ClickHouseService);
        const [counts] = await ch.query<{ clicks: string; conversions: string; offsets: string; rows: string }>(
          `SELECT countIf(type = 'click') AS clicks, countIf(type = 'conversion') AS conversions,
                uniqExact(partition, offset) AS offsets, count() AS rows
         FROM ${ch.table('interactions')} WHERE topic = {topic:String}`,
          { topic },
        );
        expect(Object.values(counts).map(Number)).toEqual([1000, 400, 1400, 1400]);
      } finally {
        await reader.close();
      }
    },
    120_000,
  );
});
