import type { Consumer } from 'kafkajs';
import { IngestConsumer } from '@app/ingest';
import { freshDir, startService, type Service } from './support/processes';
import { BASIC, http, startApp, type TestApp } from './support/test-app';
import { caughtUp, describeKafka, produceEvents, startKafka, type KafkaBroker } from './support/kafka';
import { eventually } from './support/storage';

const BURST = 'health-burst';
const FRESH = 'health-fresh';
const READY = 'health-ready';

/**
 * The ingest app's probes (docs/operations.md, "Probes and metrics"). The composition app serves the query app's
 * /health routes, so the stall verdict is read in-process there (with a small threshold) and readiness from the
 * ingest app run as its own process, whose /health/ready is the one that reports the consumer.
 */
describeKafka('ingest health against a real broker protocol', () => {
  let broker: KafkaBroker;
  const apps: TestApp[] = [];
  let service: Service | undefined;
  /** What the ingest app's /metrics serves (the readiness test below reads it). */
  let ingestMetricNames: string[] = [];
  beforeAll(async () => {
    broker = await startKafka({ [BURST]: 4, [FRESH]: 2, [READY]: 1, 'catalogue-documents': 1 });
  });
  afterAll(async () => {
    for (const app of apps) {
      await app.close();
    }
    await service?.stop();
    await broker.stop();
  });

  const start = async (topic: string, group: string) => {
    const app = await startApp({
      KAFKA_BROKERS: broker.brokers,
      KAFKA_TOPIC_SEARCH_EVENTS: topic,
      KAFKA_GROUP_ID: group,
      KAFKA_SESSION_TIMEOUT_MS: '6000',
    });
    apps.push(app);
    const consumer = app.app.get(IngestConsumer);
    await eventually(
      () => consumer.assignment()[topic] ?? [],
      (p) => p.length > 0,
    );
    return { app, consumer };
  };

  it('never reports a partition stalled when a burst follows an idle spell longer than the threshold', async () => {
    // Far beyond what the burst's inserts take, even on two busy cores: the burst may be stored as one shared insert
    // (decision 0083), so its partitions commit only once it is in. A CI run with other suites beside it saw 5 s
    // pass before the first commit.
    const stallMs = 20_000;
    const { consumer } = await start(BURST, 'burst');
    await eventually(
      () => consumer.assignment()[BURST] ?? [],
      (p) => p.length === 4,
    );
    // Idle for longer than the threshold: nothing waits, so nothing is stalled however long it lasts.
    await new Promise((r) => setTimeout(r, stallMs + 1500));
    expect(await consumer.health(stallMs)).toMatchObject({ stalled: false, lag: 0 });

    let polling = true;
    const seen: Array<{ stalled: boolean; lag: number; sinceProgressMs: number }> = [];
    const poll = (async () => {
      while (polling) {
        seen.push(await consumer.health(stallMs));
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    await produceEvents(broker, BURST, 10_000, { customer: 'burst' }, 'burst');
    await eventually(() => caughtUp(broker, 'burst', BURST), Boolean, 60_000);
    await eventually(
      () => consumer.health(stallMs),
      (h) => h.lag === 0,
    );
    polling = false;
    await poll;

    expect(seen.some((h) => h.lag > 0)).toBe(true); // the burst was seen waiting
    expect(seen.filter((h) => h.stalled)).toEqual([]);
  }, 150_000);

  it('reports lag from the broker: 0 once consumed, and messages produced while paused', async () => {
    const { app, consumer } = await start(FRESH, 'fresh');
    const metricLag = async () => {
      const text = (await http<string>(`${app.url}/metrics`)).body;
      const lines = text.split('\n').filter((l) => l.startsWith(`ingest_consumer_lag{topic="${FRESH}"`));
      return lines.reduce((sum, l) => sum + Number(l.split(' ').pop()), 0);
    };

    await produceEvents(broker, FRESH, 1000, { customer: 'fresh' }, 'first');
    expect(await eventually(() => caughtUp(broker, 'fresh', FRESH), Boolean, 40_000)).toBe(true);
    expect(await eventually(metricLag, (lag) => lag === 0)).toBe(0);
    expect((await consumer.health()).lag).toBe(0);

    // Paused, the partitions are not fetched: no batch tells of the messages that arrive, only the broker does.
    (consumer as unknown as { consumer: Consumer }).consumer.pause([{ topic: FRESH }]);
    await produceEvents(broker, FRESH, 500, { customer: 'fresh' }, 'paused');
    // /metrics without anyone asking for health: the figures are probed on their own.
    expect(await eventually(metricLag, (lag) => lag === 500, 15_000)).toBe(500);
    expect((await consumer.health()).lag).toBe(500);

    (consumer as unknown as { consumer: Consumer }).consumer.resume([{ topic: FRESH }]);
    expect(await eventually(() => caughtUp(broker, 'fresh', FRESH), Boolean, 40_000)).toBe(true);
    expect(await eventually(metricLag, (lag) => lag === 0)).toBe(0);
    expect((await consumer.health()).lag).toBe(0);
  }, 120_000);

  it('answers /health/ready 503 while the broker is down and 200 once it is back (ingest app process)', async () => {
    service = await startService('apps/ingest/src/main.js', {
      DATA_DIR: freshDir('ingest-ready'),
      KAFKA_BROKERS: broker.brokers,
      KAFKA_TOPIC_SEARCH_EVENTS: READY,
      KAFKA_GROUP_ID: 'ready',
      KAFKA_SESSION_TIMEOUT_MS: '6000',
      SERVICE_BASIC_AUTH: `${BASIC.login}:${BASIC.password}`,
      LOG_LEVEL: 'warn',
    });
    // fetch, not http(): docs/openapi.json describes the composition app, whose /health routes are the query app's.
    const ready = async () => {
      const res = await fetch(`${service!.url}/health/ready`);
      return { status: res.status, body: (await res.json()) as { ready: boolean; reason?: string } };
    };
    expect(await eventually(ready, (r) => r.status === 200, 30_000)).toMatchObject({ status: 200, body: { ready: true } });

    await broker.command('down 1');
    const downAt = Date.now();
    try {
      // At once here: the test broker refuses connections, so kafkajs' consumer crashes. That a broker which does not
      // answer turns it within the session timeout is checked in group-membership.spec.ts.
      const down = await eventually(ready, (r) => r.status === 503, 20_000);
      expect(down).toMatchObject({ status: 503, body: { ready: false } });
      // Within the session timeout (6 s here) of the broker going away.
      expect(Date.now() - downAt).toBeLessThan(6000);
      expect(down.body.reason).toEqual(expect.any(String));
      // Liveness is not readiness: nothing waits, so the process is not stalled.
      expect((await fetch(`${service.url}/health/live`)).status).toBe(200);
    } finally {
      await broker.command('up 1');
    }
    expect(await eventually(ready, (r) => r.status === 200, 60_000)).toMatchObject({ status: 200, body: { ready: true } });
    ingestMetricNames = metricNames(await (await fetch(`${service.url}/metrics`)).text());
  }, 150_000);

  it('answers /health/ready 503 in the composition app with Kafka while not a group member, with the ingest metrics', async () => {
    const composed = await startService('apps/standalone/src/main.js', {
      DATA_DIR: freshDir('composed-ready'),
      KAFKA_BROKERS: broker.brokers,
      KAFKA_TOPIC_SEARCH_EVENTS: READY,
      KAFKA_GROUP_ID: 'composed-ready',
      KAFKA_SESSION_TIMEOUT_MS: '6000',
      SERVICE_BASIC_AUTH: `${BASIC.login}:${BASIC.password}`,
      LOG_LEVEL: 'warn',
    });
    try {
      const ready = async () => {
        const res = await http<{ status: string; reason?: string }>(`${composed.url}/health/ready`);
        return { status: res.status, body: res.body };
      };
      expect(await eventually(ready, (r) => r.status === 200, 30_000)).toEqual({
        status: 200,
        body: { status: 'ok', storage: 'up', migrated: true },
      });
      // Every metric the ingest app serves, the composition app consuming Kafka serves too.
      const names = metricNames(await (await fetch(`${composed.url}/metrics`)).text());
      expect(ingestMetricNames.length).toBeGreaterThan(0);
      expect(ingestMetricNames.filter((name) => !names.includes(name))).toEqual([]);
      expect(names).toContain('ingest_duplicate_offsets_total');

      await broker.command('down 1');
      try {
        const down = await eventually(ready, (r) => r.status === 503, 20_000);
        expect(down).toMatchObject({ status: 503, body: { status: 'unavailable', storage: 'up', migrated: true } });
        expect(down.body.reason).toEqual(expect.stringMatching(/consumer|group|broker/));
      } finally {
        await broker.command('up 1');
      }
      expect(await eventually(ready, (r) => r.status === 200, 60_000)).toMatchObject({ status: 200 });
    } finally {
      await composed.stop();
    }
  }, 150_000);
});

/** The metric names of a Prometheus text page (its `# TYPE` lines). */
function metricNames(text: string): string[] {
  return [...text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]).sort();
}
