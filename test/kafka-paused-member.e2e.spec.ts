import { writeFileSync } from 'node:fs';
import { startService, type Service } from './support/processes';
import { caughtUp, describeKafka, startKafka, type KafkaBroker } from './support/kafka';
import { startStorageServer, type StorageServer } from './support/storage-server';
import { eventually } from './support/storage';

const TOPIC = 'paused-events';
const GROUP = 'paused';
const SESSION_TIMEOUT_MS = 6000;
const ROLLUPS = [
  'search_terms_hourly',
  'search_terms_daily',
  'search_phrases_hourly',
  'search_phrases_daily',
  'search_totals_hourly',
  'search_term_spellings_hourly',
];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Three ingest processes in one group share a ClickHouse server whose inserts take 1-1.5 s, while events flow; one
 * member after another is stopped (SIGSTOP) for longer than the session timeout, so the group hands its partitions
 * to the others, and then resumed (SIGCONT) with its batches still under way. What a long GC pause, a throttled
 * container or a live-migrated VM does to a process.
 */
describeKafka('an ingest process paused past the session timeout (real processes, SIGSTOP)', () => {
  let broker: KafkaBroker;
  let storage: StorageServer;
  const members: Service[] = [];
  beforeAll(async () => {
    broker = await startKafka({ [TOPIC]: 6, 'catalogue-documents': 1 });
    storage = await startStorageServer('1000-1500');
  });
  afterAll(async () => {
    if (process.env.PAUSED_LOGS)
      members.forEach((m, i) => writeFileSync(`${process.env.PAUSED_LOGS}/member-${i}.log`, m.stdout() + m.stderr()));
    for (const member of members) {
      member.child.kill('SIGCONT');
      await member.stop();
    }
    await storage?.stop();
    await broker?.stop();
  });

  it('stores every event once, in the raw table and in every rollup, however often a member pauses', async () => {
    const env = {
      CLICKHOUSE_URL: storage.url,
      KAFKA_BROKERS: broker.brokers,
      KAFKA_TOPIC_SEARCH_EVENTS: TOPIC,
      KAFKA_GROUP_ID: GROUP,
      KAFKA_SESSION_TIMEOUT_MS: String(SESSION_TIMEOUT_MS),
      // The duplicate check must not hide a duplicate from this test: it runs once a minute at the most often.
      INGEST_DUPLICATE_CHECK_MS: '60000',
    };
    for (let i = 0; i < 3; i++) members.push(await startService('apps/ingest/src/main.js', env, 60_000));

    let produced = 0;
    let producing = true;
    const producer = (async () => {
      while (producing) {
        // Few, large sends: the test broker hands a consumer one produced set per partition and fetch, and every
        // insert takes 1-1.5 s, so many small sends would outrun the consumers.
        const messages = Array.from({ length: 1200 }, () => {
          const n = produced++;
          return {
            key: `p-${n}`,
            value: JSON.stringify({ customer: 'paused', instance: 'live', phrase: `paused ${n % 40}`, language: 'en', hits: n % 3 }),
          };
        });
        await broker.producer.send({ topic: TOPIC, acks: -1, messages });
        await sleep(1000);
      }
    })();

    await sleep(8000); // all three members joined and consuming
    for (const member of [members[0], members[1], members[2], members[0]]) {
      member.child.kill('SIGSTOP');
      // Past the session timeout: the group gives its partitions to the others. (Longer pauses made the test broker,
      // librdkafka's mock cluster, die in 3 of 5 runs.)
      await sleep(SESSION_TIMEOUT_MS + 3000);
      member.child.kill('SIGCONT');
      await sleep(4000);
    }
    producing = false;
    await producer;

    const done = await eventually(() => caughtUp(broker, GROUP, TOPIC), Boolean, 120_000);
    if (!done && process.env.PAUSED_LOGS) {
      const ends = await broker.admin.fetchTopicOffsets(TOPIC);
      const committed = await broker.admin.fetchOffsets({ groupId: GROUP, topics: [TOPIC] });
      const stored = await storage.query(
        `SELECT partition, count(), max(offset) FROM search_analytics.search_events GROUP BY partition ORDER BY partition`,
      );
      const health = await Promise.all(members.map(async (m) => (await fetch(`${m.url}/health/live`)).text()));
      writeFileSync(`${process.env.PAUSED_LOGS}/state.json`, JSON.stringify({ ends, committed, stored, health }, null, 1));
    }
    expect(done).toBe(true);
    const [raw] = await storage.query<{ rows: string; counted: string; distinct: string }>(
      `SELECT countIf(sign > 0) AS rows, sum(sign) AS counted, uniqExact(topic, partition, offset) AS distinct
       FROM search_analytics.search_events WHERE customer = 'paused'`,
    );
    // No row was written twice at all (nothing for the duplicate check to repair), and every event is there.
    expect({ rows: Number(raw.rows), counted: Number(raw.counted), distinct: Number(raw.distinct) }).toEqual({
      rows: produced,
      counted: produced,
      distinct: produced,
    });
    for (const rollup of ROLLUPS) {
      const [{ searches }] = await storage.query<{ searches: string }>(
        `SELECT sum(searches) AS searches FROM search_analytics.${rollup} WHERE customer = 'paused'`,
      );
      expect([rollup, Number(searches)]).toEqual([rollup, produced]);
    }
    // Each pause made the group move partitions: the resumed member logged that it lost its membership.
    const logs = members.map((m) => m.stdout()).join('\n');
    expect(logs).toMatch(/assigned partitions/);
  }, 300_000);
});
