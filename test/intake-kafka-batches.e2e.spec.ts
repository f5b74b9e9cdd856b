import { randomUUID } from 'node:crypto';
import { ClickHouseService } from '@app/clickhouse';
import { MAX_ITEMS_IN_FLIGHT } from '@app/intake';
import { KafkaService } from '@app/kafka';
import { caughtUp, describeKafka } from './support/kafka';
import { kafkaSuite } from './support/kafka-app';
import { eventually, storedCounts } from './support/storage';
import { FLOOD_EVENTS_PER_REQUEST, insertsInto, postFlood, postSpread } from './support/spread-requests';
import { basicHeader, http } from './support/test-app';

/**
 * POST /events on the Kafka transport, one event per request, many at once (docs/decisions/0042-the-kafka-transport-in-batches.md).
 */
describeKafka('single-event POST /events at once (Kafka transport)', () => {
  const TOPIC = 'batched-events';
  const suite = kafkaSuite(TOPIC, 'batched', { RATE_LIMIT_PER_MINUTE: '0' });

  it('refuses requests at once while MAX_ITEMS_IN_FLIGHT items are in flight (503, Retry-After); every 202 is stored', async () => {
    const { broker, app: t } = suite;
    const producer = await t.app.get(KafkaService).producer();
    const sendBatch = producer.sendBatch.bind(producer);
    const slow = jest.spyOn(producer, 'sendBatch').mockImplementation(async (batch: Parameters<typeof sendBatch>[0]) => {
      await new Promise((r) => setTimeout(r, 1500));
      return sendBatch(batch);
    });
    const before = await storedCounts(t);
    const accepted = await postFlood(t.url, Math.ceil(MAX_ITEMS_IN_FLIGHT / FLOOD_EVENTS_PER_REQUEST) + 3, 'kafka flood');
    slow.mockRestore();
    // Up to 80,000 events through the broker and the consumer: 44 s in all locally beside another suite.
    await eventually(() => caughtUp(broker, 'batched', TOPIC), Boolean, 90_000);
    const after = await eventually(
      () => storedCounts(t),
      (c) => c.events - before.events >= accepted,
      60_000,
    );
    expect(after.events - before.events).toBe(accepted);
  }, 180_000);

  it('shares sends and inserts: 300 requests (Basic, events with ids) over about two seconds, each stored once', async () => {
    const { broker, app: t } = suite;
    const ch = t.app.get(ClickHouseService);
    const producer = await t.app.get(KafkaService).producer();
    const inserts = jest.spyOn(ch, 'insert');
    // When each producer send starts (send or sendBatch).
    const sendTimes: number[] = [];
    const timed = (name: 'send' | 'sendBatch') => {
      const original = producer[name].bind(producer) as (record: unknown) => Promise<unknown>;
      return jest.spyOn(producer, name).mockImplementation(((record: unknown) => {
        sendTimes.push(Date.now());
        return original(record);
      }) as never);
    };
    const sends = [timed('send'), timed('sendBatch')];
    const before = await storedCounts(t);
    // Every tenth event is rejected (a negative hit count): its request writes a rejected row and produces nothing.
    const bodies = Array.from({ length: 300 }, (_, i) =>
      JSON.stringify({ events: [{ id: randomUUID(), phrase: `kafka single ${i}`, language: 'en', hits: i % 10 === 9 ? -1 : 2 }] }),
    );
    const { statuses, seconds } = await postSpread(t.url, bodies, 15);
    const counted = { claims: insertsInto(inserts, 'intake_claims'), rejected: insertsInto(inserts, 'rejected_events') };
    inserts.mockRestore();
    sends.forEach((spy) => spy.mockRestore());
    expect(statuses).toEqual(Array(300).fill(202));
    expect(counted.claims).toBeLessThanOrEqual(Math.ceil(seconds * 10) + 2);
    expect(counted.rejected).toBeLessThanOrEqual(Math.ceil(seconds * 10) + 1);
    const mostIn100Ms = Math.max(...sendTimes.map((at) => sendTimes.filter((other) => other >= at && other < at + 100).length));
    expect(mostIn100Ms).toBeLessThanOrEqual(6);

    await eventually(() => caughtUp(broker, 'batched', TOPIC), Boolean);
    const after = await eventually(
      () => storedCounts(t),
      (c) => c.events - before.events >= 270,
    );
    await new Promise((r) => setTimeout(r, 500));
    expect(await storedCounts(t)).toEqual(after);
    expect([after.events - before.events, after.distinctEvents - before.distinctEvents, after.rollup - before.rollup]).toEqual([
      270, 270, 270,
    ]);
    expect(after.rejected - before.rejected).toBe(30);
  }, 60_000);

  it('answers 503 with Retry-After to every request of a failed send, and their retries are stored once', async () => {
    const { broker, app: t } = suite;
    const producer = await t.app.get(KafkaService).producer();
    const failing = jest.spyOn(producer, 'sendBatch').mockImplementationOnce(() => Promise.reject(new Error('broker gone')));
    const before = await storedCounts(t);
    const bodies = Array.from({ length: 6 }, (_, i) =>
      JSON.stringify({ events: [{ id: randomUUID(), phrase: `failed send ${i}`, language: 'en', hits: 1 }] }),
    );
    const post = (body: string) =>
      http(`${t.url}/events`, { method: 'POST', headers: { ...basicHeader(), 'content-type': 'application/json' }, body });
    const first = await Promise.all(bodies.map(post));
    const inFailedSend = failing.mock.calls[0][0].topicMessages!.flatMap((m) => m.messages).length;
    failing.mockRestore();
    const refused = first.filter((r) => r.status === 503);
    expect(refused.length).toBe(inFailedSend);
    for (const res of refused) {
      expect(res.headers['retry-after']).toBe('1');
      expect(JSON.stringify(res.body)).toContain('part of this request may have been accepted');
    }
    expect(first.filter((r) => r.status === 202).length).toBe(6 - inFailedSend);
    // Every request again: the refused ones are produced now, the others are answered from their claims.
    expect((await Promise.all(bodies.map(post))).map((r) => r.status)).toEqual(Array(6).fill(202));
    await eventually(() => caughtUp(broker, 'batched', TOPIC), Boolean);
    const after = await eventually(
      () => storedCounts(t),
      (c) => c.events - before.events >= 6,
    );
    await new Promise((r) => setTimeout(r, 500));
    expect((await storedCounts(t)).events - before.events).toBe(6);
    expect(after.events - before.events).toBe(6);
  }, 60_000);
});
