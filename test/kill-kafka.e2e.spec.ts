import { exitSignal, freshDir, runScript, startService, type Service } from './support/processes';
import { caughtUp, describeKafka, produceEvents, startKafka, type KafkaBroker } from './support/kafka';
import { answeredCounts, eventually } from './support/storage';
import { TEST_STORAGE } from './support/storage-mode';

/**
 * The service consuming Kafka, killed in the middle of a partition batch's insert: after its raw part,
 * before its views (test/support/hold-insert.js). The batch is delivered again after the restart (its offsets were
 * never committed). The consumer finds its rows in the raw table and skips them, and the storage check completes
 * the views the kill cut short: the raw table, every rollup and the answers count each event once
 * (docs/architecture.md, "A kill at any moment"). With TEST_STORAGE=server the app dies and the server lives on.
 */
const TOPIC = 'search-events';
const STANDALONE = 'apps/standalone/src/main.js';
const EVENTS = 3000;

describeKafka(`the service (${TEST_STORAGE}) killed mid-insert while it consumes Kafka`, () => {
  let broker: KafkaBroker;
  let service: Service | undefined;
  beforeAll(async () => {
    broker = await startKafka({ [TOPIC]: 4, 'catalogue-documents': 1 });
  });
  afterAll(async () => {
    await service?.stop();
    await broker.stop();
  });

  it('counts a batch cut between its raw rows and its views once, everywhere', async () => {
    const dir = freshDir('kill-kafka');
    const basic = 'ops:kill-kafka-password';
    const env = {
      DATA_DIR: dir,
      KAFKA_BROKERS: broker.brokers,
      KAFKA_TOPIC_SEARCH_EVENTS: TOPIC,
      KAFKA_GROUP_ID: 'kill-kafka',
      KAFKA_SESSION_TIMEOUT_MS: '6000',
      SERVICE_BASIC_AUTH: basic,
      LOG_LEVEL: 'warn',
      STORAGE_CHECK_MS: '1000',
      HOLD_INSERT_AT: '2',
      HOLD_MARKER: `${dir}/held`,
    };
    // With dimensions: the dimension rollups are compared with the raw rows too (8 rows per search there).
    const dimensions = { filters: ['brand:Acme', 'price<=100'], tags: ['mobile'], country: 'de', userToken: 'u-1' };
    await produceEvents(broker, TOPIC, EVENTS, dimensions);
    service = await startService(STANDALONE, env, 90_000, ['hold-insert.js']);
    expect(await exitSignal(service)).toBe('SIGKILL');

    service = await startService(STANDALONE, env, 90_000, ['hold-insert.js']);
    expect(await eventually(() => caughtUp(broker, 'kill-kafka', TOPIC), Boolean, 90_000)).toBe(true);
    const authorization = `Basic ${Buffer.from(basic).toString('base64')}`;
    // Exact within 2 x STORAGE_CHECK_MS of the restart (a wait for the answers, not a timing target).
    const answered = await eventually(
      () => answeredCounts(service!.url, authorization),
      (c) => c.stats === EVENTS && c.lists === EVENTS,
      30_000,
    );
    // Embedded, the held insert was cut (its views repaired at the restart's check), not merely interrupted before its
    // raw part. On a server, the server lived on and finished it: nothing to repair, and no check runs.
    const metrics = await (await fetch(`${service.url}/metrics`)).text();
    const repaired = [...metrics.matchAll(/^storage_repairs_total\{table="[a-z_]+"\} (\d+)$/gm)].length;
    expect(repaired > 0).toBe(TEST_STORAGE === 'embedded');
    await service.stop();
    service = undefined;

    const totals = await runScript('apps/query/src/cli.js', ['totals', 'demo'], env);
    expect(totals.code).toBe(0);
    const stored = JSON.parse(totals.stdout) as { events: number; rollups: Record<string, number> };
    expect({ raw: stored.events, ...answered }).toEqual({ raw: EVENTS, stats: EVENTS, lists: EVENTS });
    expect(Object.entries(stored.rollups).filter(([, n]) => n !== EVENTS)).toEqual([]);
  }, 300_000);
});
