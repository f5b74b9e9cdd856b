/**
 * One contender of the ingest benchmark, in its own process (chdb binds one data directory per process).
 *   direct        the same validated rows inserted with @clickhouse/client: the store's own limit
 *   kafka-engine  ClickHouse's Kafka table engine (inside chdb) consuming the same topic
 *   freshness     the ingest module consuming while probe events are timed from produce to stored
 * Prints one line `RESULT {json}`.
 */
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { ClickHouseService, MIGRATIONS, MigratorService } from '@app/clickhouse';
import { loadConfig } from '@app/config';
import { BotDetector, validateSearchEvent, type SearchEventRow } from '@app/contracts';
import { IngestAppModule } from '../apps/ingest/src/ingest-app.module';
import { searchEvents } from './generator';

const mode = process.argv[2];
const env = process.env;
const count = Number(env.BENCH_EVENTS ?? 1_000_000);
const result = (value: object) => process.stdout.write(`RESULT ${JSON.stringify(value)}\n`);

async function storage(): Promise<ClickHouseService> {
  const config = loadConfig(env);
  const ch = new ClickHouseService(config);
  await new MigratorService(ch, config).migrate(MIGRATIONS);
  return ch;
}

async function direct(): Promise<void> {
  const ch = await storage();
  const rules = { retentionDays: 400, bots: new BotDetector() };
  const now = Date.now();
  const batchSize = 50_000;
  let batch: SearchEventRow[] = [];
  let insertMs = 0;
  let offset = 0;
  const flush = async () => {
    const t = performance.now();
    await ch.insert('search_events', batch, `direct:${offset}`);
    insertMs += performance.now() - t;
    batch = [];
  };
  for (const event of searchEvents(count, { dimensions: process.env.BENCH_DIMENSIONS === '1' })) {
    const r = validateSearchEvent(event, { now, source: 'kafka', topic: 'direct', partition: 0, offset: offset++ }, rules);
    if (r.ok) {
      batch.push(r.row);
    }
    if (batch.length === batchSize) {
      await flush();
    }
  }
  if (batch.length > 0) {
    await flush();
  }
  const [{ c }] = await ch.query<{ c: string }>(`SELECT count() AS c FROM ${ch.table('search_events')}`);
  result({ rows: Number(c), insertSeconds: insertMs / 1000, eventsPerSecond: Math.round(Number(c) / (insertMs / 1000)) });
  await ch.onApplicationShutdown();
}

async function kafkaEngine(): Promise<void> {
  const ch = await storage();
  const partitions = Number(env.BENCH_PARTITIONS ?? 48);
  // Tuned to be a fair contender: consumers up to the cores (2: the engine caps them at the physical cores), blocks of
  // 65,536 rows, flushed every 200 ms, polled every 50 ms.
  await ch.command(`CREATE TABLE ${ch.table('kafka_source')} (
      customer String, instance String, phrase String, language String, hits UInt32, userAgent String, ts UInt64
    ) ENGINE = Kafka SETTINGS kafka_broker_list = '${env.KAFKA_BROKERS}', kafka_topic_list = '${env.KAFKA_TOPIC_SEARCH_EVENTS}',
      kafka_group_name = 'bench-kafka-engine', kafka_format = 'JSONEachRow', kafka_num_consumers = ${Math.min(2, partitions)},
      kafka_thread_per_consumer = 1, kafka_max_block_size = 65536, kafka_flush_interval_ms = 200, kafka_poll_timeout_ms = 50,
      input_format_skip_unknown_fields = 1`);
  const started = performance.now();
  // The same columns our ingest writes, with normalisation and a bot pattern done in SQL (no user-agent library).
  await ch.command(`CREATE MATERIALIZED VIEW ${ch.table('kafka_source_mv')} TO ${ch.table('search_events')} AS
    SELECT generateUUIDv4() AS event_id, customer, instance, fromUnixTimestamp64Milli(toInt64(ts)) AS ts,
      lowerUTF8(replaceRegexpAll(trimBoth(normalizeUTF8NFC(phrase)), '\\\\s+', ' ')) AS phrase, phrase AS raw_phrase,
      lower(language) AS language, hits, match(userAgent, '(?i)bot|crawl|spider') AS bot, '' AS session_hash,
      'kafka' AS source, _topic AS topic, toInt32(_partition) AS partition, toInt64(_offset) AS offset, now64(3) AS received_at
    FROM ${ch.table('kafka_source')}`);
  let first = 0;
  let rows = 0;
  while (rows < count && performance.now() - started < 600_000) {
    await new Promise((r) => setTimeout(r, 200));
    rows = Number((await ch.query<{ c: string }>(`SELECT count() AS c FROM ${ch.table('search_events')}`))[0].c);
    if (rows > 0 && first === 0) {
      first = performance.now();
    }
  }
  const done = performance.now();
  await ch.command(`DROP TABLE ${ch.table('kafka_source_mv')}`);
  // When everything lands within one poll there is no steady phase to time: the total (join included) is used.
  const steady = (done - first) / 1000 >= 1 ? (done - first) / 1000 : (done - started) / 1000;
  result({ rows, totalSeconds: (done - started) / 1000, steadySeconds: steady, eventsPerSecond: Math.round(rows / steady) });
  await ch.onApplicationShutdown();
  process.exit(0);
}

async function freshness(): Promise<void> {
  const config = loadConfig(env);
  const app = await NestFactory.createApplicationContext(IngestAppModule.forRoot(config), { logger: ['error', 'warn'] });
  const ch = app.get(ClickHouseService);
  process.stdout.write('READY\n');
  const probes: Record<string, number> = {};
  let stop = false;
  process.stdin.on('data', () => (stop = true));
  while (!stop) {
    const rows = await ch.query<{ phrase: string; t: string | number }>(
      `SELECT phrase, toUnixTimestamp64Milli(ts) AS t FROM ${ch.table('search_events')}
       WHERE customer = 'probe' AND ts > now64(3) - INTERVAL 60 SECOND`,
    );
    const at = Date.now();
    for (const r of rows) {
      probes[r.phrase] ??= at - Number(r.t);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  result({ probes });
  await app.close();
  process.exit(0);
}

const modes: Record<string, () => Promise<void>> = { direct, 'kafka-engine': kafkaEngine, freshness };
(modes[mode] ?? (() => Promise.reject(new Error(`unknown mode ${mode}`))))().catch((err) => {
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exit(1);
});
