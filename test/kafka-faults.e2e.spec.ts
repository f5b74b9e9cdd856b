import { caughtUp, describeKafka } from './support/kafka';
import { kafkaSuite } from './support/kafka-app';
import { eventually, storedCounts } from './support/storage';

const TOPIC = 'search-events';

describeKafka('faults under load: the broker goes down and comes back while events are produced', () => {
  const suite = kafkaSuite(TOPIC, 'faults');

  it('counts every acknowledged event exactly once after the broker is back, and reports the recovery time', async () => {
    const { broker, app: t } = suite;
    let acked = 0;
    let n = 0;
    let producing = true;
    const producer = (async () => {
      while (producing) {
        const messages = Array.from({ length: 100 }, () => ({
          key: `f-${n}`,
          value: JSON.stringify({ customer: 'faults', instance: 'live', phrase: `fault ${n++ % 50}`, language: 'en', hits: 1 }),
        }));
        try {
          await broker.producer.send({ topic: TOPIC, acks: -1, messages, timeout: 2000 });
          acked += messages.length;
        } catch {
          // not acknowledged: the client would retry; not counted as accepted
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    await new Promise((r) => setTimeout(r, 1500));
    await broker.command('down 1');
    await new Promise((r) => setTimeout(r, 3000));
    await broker.command('up 1');
    const upAt = Date.now();
    await new Promise((r) => setTimeout(r, 1500));
    producing = false;
    await producer;

    // The recovery is reported, not a target (kafkajs backs off while the broker is away): in CI runs it took
    // 25 s to 62 s, so the wait allows 90 s.
    const counts = await eventually(
      () => storedCounts(t, 'faults'),
      (c) => c.events >= acked,
      90_000,
    );
    const recoveryMs = Date.now() - upAt;
    process.stderr.write(`broker fault: ${acked} acknowledged events; all stored ${recoveryMs} ms after the broker came back\n`);
    expect(acked).toBeGreaterThan(1000);
    expect(await eventually(() => caughtUp(broker, 'faults', TOPIC), Boolean, 30_000)).toBe(true);
    const final = await storedCounts(t, 'faults');
    // Exactly once from the log on: every message in the topic is stored once. The log holds at least every
    // acknowledged send (a send that failed on the client may still have reached it).
    const inLog = (await broker.admin.fetchTopicOffsets(TOPIC)).reduce((sum, o) => sum + Number(o.high), 0);
    expect(final.events).toBe(inLog);
    expect(inLog).toBeGreaterThanOrEqual(acked);
    expect(final.rollup).toBe(final.events);
    expect(counts.events).toBeGreaterThanOrEqual(acked);
  }, 150_000);
});
