import { Logger } from '@nestjs/common';
import { ClickHouseService } from '@app/clickhouse';
import { IngestStore, IntakeKinds } from '@app/intake';
import { IngestConsumer, batchToken } from '@app/ingest';
import { DuplicateOffsets } from '../apps/ingest/src/duplicate-offsets';
import { basicHeader, http, startApp, uniqueDatabase, type TestApp } from './support/test-app';
import { caughtUp, describeKafka, produceEvents, startKafka, type KafkaBroker } from './support/kafka';
import { eventually, storedCounts } from './support/storage';

const TOPIC = 'repair-events';

describeKafka('Kafka offsets stored twice: one insert per partition range, detected and made harmless', () => {
  let broker: KafkaBroker;
  let t: TestApp;
  let stores: Array<Parameters<IngestStore['store']>> = [];
  beforeAll(async () => {
    broker = await startKafka({ [TOPIC]: 2, 'catalogue-documents': 1 });
    // Called through (a spy, not a stub): which rows each insert of the consumer holds, and its token.
    const store = jest.spyOn(IngestStore.prototype, 'store');
    stores = store.mock.calls;
    t = await startApp({
      KAFKA_BROKERS: broker.brokers,
      KAFKA_TOPIC_SEARCH_EVENTS: TOPIC,
      KAFKA_GROUP_ID: 'repair',
      KAFKA_SESSION_TIMEOUT_MS: '6000',
      SEARCH_TERMS_CACHE_MS: '0',
      INGEST_DUPLICATE_CHECK_MS: '1000',
    });
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await t?.close();
    await broker?.stop();
  });

  /** The counts of every answer a client reads for the customer (from the rollups). */
  const answers = async () => {
    const get = async <T>(path: string) => (await http<T>(`${t.url}${path}`, { headers: basicHeader() })).body;
    type Terms = Array<{ search_phrase: string; count: number }>;
    const terms = (list: Terms) => list.map((x) => [x.search_phrase, x.count]);
    const stats = await get<{ totals: object; series: Array<{ searches: number; zero_hit_searches: number }> }>(
      '/search-stats?since=1d&interval=hour',
    );
    const [id] = (await get<Array<{ id: string }>>('/search-terms?since=1d&hits=true&_end=1')).map((x) => x.id);
    const detail = await get<{ count: number; zero_hit_count: number }>(`/search-terms/${id}?since=1d`);
    return {
      found: terms(await get<Terms>('/search-terms?since=1d&hits=true&_end=1000')),
      zero: terms(await get<Terms>('/search-terms?since=1d&hits=false&_end=1000')),
      totals: stats.totals,
      series: stats.series.map((b) => [b.searches, b.zero_hit_searches]),
      detail: [detail.count, detail.zero_hit_count],
    };
  };

  it('inserts each partition batch alone, with a token naming its offset range', async () => {
    await produceEvents(broker, TOPIC, 400, { customer: 'demo', instance: 'live' }, 'repair');
    await eventually(() => caughtUp(broker, 'repair', TOPIC), Boolean, 60_000);
    const searchInserts = stores.filter(([, , , token]) => token?.startsWith(`${TOPIC}:`));
    expect(searchInserts.length).toBeGreaterThan(0);
    expect(searchInserts.reduce((n, [, rows]) => n + rows.length, 0)).toBe(400);
    for (const [, rows, , token] of searchInserts) {
      const match = /^repair-events:(\d+):(\d+)-(\d+):(\d+-\d+):[0-9a-f]{16}$/.exec(token!)!;
      const [partition, first, last] = match.slice(1, 4).map(Number);
      expect(token).toBe(
        batchToken(
          TOPIC,
          partition,
          first,
          last,
          match[4],
          rows.map((r) => r.offset),
        ),
      );
      expect(new Set(rows.map((r) => r.partition))).toEqual(new Set([partition]));
      expect(rows.every((r) => r.offset >= first && r.offset <= last)).toBe(true);
    }
  });

  it('stores an identical offset range once when another process inserts it again', async () => {
    const other = await startApp({ CLICKHOUSE_DATABASE: uniqueDatabase() });
    const database = other.app.get(ClickHouseService).database;
    await other.close();
    // Two apps (two processes' worth of clients) on one database, each inserting the same range.
    const [a, b] = [await startApp({ CLICKHOUSE_DATABASE: database }), await startApp({ CLICKHOUSE_DATABASE: database })];
    try {
      const kind = a.app
        .get(IntakeKinds)
        .all()
        .find((k) => k.table === 'search_events')!;
      const rows = Array.from({ length: 5 }, (_, i) => ({
        event_id: `00000000-0000-4000-8000-00000000000${i}`,
        customer: 'same-range',
        instance: 'live',
        ts: '2026-01-01 10:00:00.000',
        phrase: 'same range',
        raw_phrase: 'same range',
        language: 'en',
        hits: 1,
        bot: false,
        session_hash: '',
        source: 'kafka' as const,
        topic: 'elsewhere',
        partition: 3,
        offset: 100 + i,
        received_at: '2026-01-01 10:00:00.000',
      }));
      const token = batchToken('elsewhere', 3, 100, 104, '11-13', [100, 101, 102, 103, 104]);
      await a.app.get(IngestStore).store(kind as never, rows, [], token);
      await b.app.get(IngestStore).store(kind as never, rows, [], token);
      expect(await storedCounts(a, 'same-range')).toEqual({ events: 5, distinctEvents: 5, rollup: 5, rejected: 0 });
    } finally {
      await a.close();
      await b.close();
    }
  });

  /** Rows of `count` offsets of a partition inserted again with another token: what a paused member's insert does. */
  const plantDuplicates = async (partition: number, from: number, count: number, token: string) => {
    const ch = t.app.get(ClickHouseService);
    const rows = await ch.query<Record<string, unknown>>(
      `SELECT * EXCEPT (sign) REPLACE (toString(message_hash) AS message_hash) FROM ${ch.table('search_events')}
       WHERE topic = {topic:String} AND partition = {partition:Int32} AND sign > 0
       ORDER BY offset LIMIT 1 BY offset LIMIT {count:UInt32} OFFSET {from:UInt32}`,
      { topic: TOPIC, partition, count, from },
    );
    expect(rows).toHaveLength(count);
    await ch.insert('search_events', rows, token);
    return rows.map((r) => Number(r.offset));
  };

  it('finds offsets stored twice within the check interval, counts them, and every answer counts them once again', async () => {
    const before = await answers();
    const warn = jest.spyOn(Logger.prototype, 'warn');
    const offsets = await plantDuplicates(0, 10, 20, 'planted-again');
    const plantedAt = Date.now();
    // The check (every INGEST_DUPLICATE_CHECK_MS, here 1 s) compensates them: the answers are what they were.
    expect(await eventually(answers, (a) => JSON.stringify(a) === JSON.stringify(before), 20_000)).toEqual(before);
    process.stderr.write(`duplicates planted: every answer exact again ${Date.now() - plantedAt} ms later\n`);
    expect(await storedCounts(t)).toEqual({ events: 400, distinctEvents: 400, rollup: 400, rejected: 0 });
    expect(warn.mock.calls.map((c) => String(c[0]))).toContainEqual(
      expect.stringContaining(`${TOPIC}:0: offsets ${offsets[0]}-${offsets[19]} were stored more than once (20 extra rows)`),
    );
    const metrics = await http<string>(`${t.url}/metrics`);
    expect(metrics.body).toMatch(new RegExp(`ingest_duplicate_offsets_total\\{topic="${TOPIC}"\\} 20\n`));
    // Once compensated, nothing is left to find.
    expect(await t.app.get(IngestConsumer).repairDuplicates()).toBe(0);
  });

  it('compensates once however many checks run at once, and again for a copy stored after a compensation', async () => {
    const before = await answers();
    const dup = t.app.get(DuplicateOffsets);
    const owned = [`${TOPIC}:0`, `${TOPIC}:1`];
    await plantDuplicates(1, 5, 10, 'planted-once');
    // Two checks at once (as two processes would run them; the timer's may join them): one compensation.
    await Promise.all([dup.repair(24, owned, () => Promise.resolve()), dup.repair(24, owned, () => Promise.resolve())]);
    expect(await answers()).toEqual(before);
    expect(await storedCounts(t)).toEqual({ events: 400, distinctEvents: 400, rollup: 400, rejected: 0 });
    // A third copy of the same offsets, after they were compensated: found and compensated too.
    await plantDuplicates(1, 5, 10, 'planted-twice');
    expect(await eventually(answers, (a) => JSON.stringify(a) === JSON.stringify(before), 20_000)).toEqual(before);
    expect(await storedCounts(t)).toEqual({ events: 400, distinctEvents: 400, rollup: 400, rejected: 0 });
  });
});
