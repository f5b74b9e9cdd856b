import { exitSignal, freshDir, runScript, startService, type Service } from './support/processes';
import { caughtUp, describeKafka, produceEvents, startKafka, type KafkaBroker } from './support/kafka';
import { eventually } from './support/storage';

const TOPIC = 'search-events';
const STANDALONE = 'apps/standalone/src/main.js';

describeKafka('an ingest process killed between insert and commit (real process, SIGKILL)', () => {
  let broker: KafkaBroker;
  let service: Service | undefined;
  beforeAll(async () => {
    broker = await startKafka({ [TOPIC]: 4, 'catalogue-documents': 1 });
  });
  afterAll(async () => {
    await service?.stop();
    await broker.stop();
  });

  it('counts every event exactly once after a restart, with data arriving while it was down', async () => {
    const env = {
      DATA_DIR: freshDir('crash'),
      KAFKA_BROKERS: broker.brokers,
      KAFKA_TOPIC_SEARCH_EVENTS: TOPIC,
      KAFKA_GROUP_ID: 'crash',
      KAFKA_SESSION_TIMEOUT_MS: '6000',
      SERVICE_BASIC_AUTH: 'ops:crash-test-password',
    };
    await produceEvents(broker, TOPIC, 6000, {}, 'before');

    // Killed right after its 3rd insert, before that batch's commit (a preload script, not production code).
    service = await startService(STANDALONE, { ...env, CRASH_AFTER_INSERTS: '3' }, 30_000, ['crash-after-insert.js']);
    expect(await exitSignal(service)).toBe('SIGKILL');
    expect(await caughtUp(broker, 'crash', TOPIC)).toBe(false);

    await produceEvents(broker, TOPIC, 4000, {}, 'while-down');

    const restartedAt = Date.now();
    service = await startService(STANDALONE, env);
    expect(await eventually(() => caughtUp(broker, 'crash', TOPIC), Boolean, 60_000)).toBe(true);
    process.stderr.write(`ingest killed: caught up (10,000 events) ${Date.now() - restartedAt} ms after the restart began\n`);
    // The re-delivered batch held rows the killed process had stored (here with the same boundaries, which the
    // mock broker keeps; kafka-ingest.e2e.spec.ts covers other boundaries).
    expect(service.stdout()).toMatch(/offsets from \d+ to \d+ already stored; skipping them/);
    await service.stop();
    service = undefined;

    const stats = await runScript('apps/query/src/cli.js', ['stats', 'demo'], env);
    expect(stats.code).toBe(0);
    expect(JSON.parse(stats.stdout)).toEqual({ events: 10_000, distinctEvents: 10_000, rollup: 10_000, rejected: 0 });
  }, 120_000);
});
