import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { Kafka, Partitioners, logLevel, type Admin, type Producer } from 'kafkajs';
import { ROOT } from './processes';

/** The Kafka test broker built by scripts/build-kafka-mock.sh (librdkafka's mock cluster). */
export const KAFKA_MOCK = path.join(ROOT, '.kafka-mock', 'kafka-mock');
const available = existsSync(KAFKA_MOCK);
const required = process.env.CI === 'true' || process.env.REQUIRE_KAFKA_TESTS === '1';

if (!available && required) {
  throw new Error(`${KAFKA_MOCK} is missing and CI requires the Kafka suites: run scripts/build-kafka-mock.sh --install`);
}
if (!available) {
  process.stderr.write(`Kafka suites SKIPPED: ${KAFKA_MOCK} is missing (build it with scripts/build-kafka-mock.sh --install)\n`);
}

/** `describe` when the Kafka test broker is built; otherwise the suite is reported as skipped, never silently passed. */
export const describeKafka: jest.Describe = available ? describe : describe.skip;

export interface KafkaBroker {
  brokers: string;
  kafka: Kafka;
  producer: Producer;
  admin: Admin;
  /** Why the broker process ended before `stop()` (its exit code or signal and last stderr), or undefined while it runs. */
  died(): string | undefined;
  /** Sends a launcher command (`down 1`, `up 1`). */
  command(line: string): Promise<void>;
  stop(): Promise<void>;
}

/** Starts a mock cluster with the given topics (name -> partitions) and connects a producer and an admin. */
export async function startKafka(topics: Record<string, number>, brokerCount = 1): Promise<KafkaBroker> {
  const child: ChildProcessWithoutNullStreams = spawn(KAFKA_MOCK, [
    String(brokerCount),
    ...Object.entries(topics).map(([t, p]) => `${t}:${p}`),
  ]);
  const lines: string[] = [];
  let waiting: (() => void) | undefined;
  let stderr = '';
  let stopping = false;
  let died: string | undefined;
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
  child.once('exit', (code, signal) => {
    if (stopping) {
      return;
    }
    died = `kafka-mock exited (code ${code}, signal ${signal}): ${stderr}`;
    process.stderr.write(`${died}\n`);
  });
  child.stdout.on('data', (chunk: Buffer) => {
    lines.push(...chunk.toString().split('\n').filter(Boolean));
    waiting?.();
  });
  const nextLine = async (): Promise<string> => {
    while (lines.length === 0) {
      await new Promise<void>((r) => (waiting = r));
    }
    return lines.shift()!;
  };
  const brokers = await nextLine();
  const kafka = new Kafka({ clientId: 'tests', brokers: brokers.split(','), logLevel: logLevel.NOTHING });
  const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner, allowAutoTopicCreation: false });
  const admin = kafka.admin();
  await producer.connect();
  await admin.connect();
  return {
    brokers,
    kafka,
    producer,
    admin,
    died: () => died,
    command: async (line) => {
      child.stdin.write(`${line}\n`);
      await nextLine();
    },
    stop: async () => {
      await producer.disconnect();
      await admin.disconnect();
      stopping = true;
      if (child.exitCode !== null || child.signalCode !== null) {
        return;
      }
      const exited = new Promise((r) => child.once('exit', r));
      child.stdin.end();
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export interface EventSpec {
  customer?: string;
  instance?: string;
  phrase?: string;
  language?: string;
  hits?: number;
  filters?: string[];
  tags?: string[];
  country?: string;
  userToken?: string;
}

/** Produces `count` valid events (acks=all) in chunks; keys spread them over all partitions. */
export async function produceEvents(broker: KafkaBroker, topic: string, count: number, spec: EventSpec = {}, prefix = 'e'): Promise<void> {
  const chunk = 1000;
  for (let start = 0; start < count; start += chunk) {
    const messages = Array.from({ length: Math.min(chunk, count - start) }, (_, i) => {
      const n = start + i;
      return {
        key: `${prefix}-${n}`,
        value: JSON.stringify({ customer: 'demo', instance: 'live', phrase: `term ${n % 97}`, language: 'en', hits: n % 5, ...spec }),
      };
    });
    await broker.producer.send({ topic, acks: -1, messages });
  }
}

/** True when the group has committed every message of the topic. */
export async function caughtUp(broker: KafkaBroker, groupId: string, topic: string): Promise<boolean> {
  const [ends, committed] = await Promise.all([
    broker.admin.fetchTopicOffsets(topic),
    broker.admin.fetchOffsets({ groupId, topics: [topic] }),
  ]);
  const done = new Map(committed[0]?.partitions.map((p) => [p.partition, Number(p.offset)]) ?? []);
  return ends.every((e) => Number(e.high) === 0 || done.get(e.partition) === Number(e.high));
}

export interface MixedOptions {
  customer?: string;
  /**
   * Insights events too (InsightsMessage): after every third search a click with two objects on it, after the next a
   * purchase without queryID.
   */
  insights?: boolean;
}

/**
 * Messages as producers write them: searches with ids, and after every second one a click on it, after every fifth
 * a conversion (and with `insights`, the Insights events above).
 */
export function mixedMessages(from: number, count: number, options: MixedOptions = {}): Array<{ key: string; value: string }> {
  const messages: Array<{ key: string; value: string }> = [];
  const base = { customer: options.customer ?? 'demo', instance: 'live' };
  for (let n = from; n < from + count; n++) {
    const id = randomUUID();
    const add = (value: object) => messages.push({ key: `s-${n}`, value: JSON.stringify(value) });
    add({ ...base, id, phrase: `term ${n % 31}`, language: 'en', hits: 1 });
    if (n % 2 === 0) {
      add({ ...base, id: randomUUID(), type: 'click', searchId: id, objectId: `p-${n}`, position: 1 + (n % 7) });
    }
    if (n % 5 === 0) {
      add({ ...base, type: 'conversion', searchId: id, objectId: `p-${n}`, ts: Date.now() });
    }
    const insights = { ...base, type: 'insights', receivedAt: Date.now() };
    const event = { eventName: `e-${n}`, index: 'products', userToken: `u-${n % 13}` };
    if (options.insights && n % 3 === 0) {
      const click = {
        ...event,
        eventType: 'click',
        queryID: id.replaceAll('-', ''),
        objectIDs: [`i-${n}-a`, `i-${n}-b`],
        positions: [1, 2],
      };
      add({ ...insights, id: randomUUID(), event: click });
    }
    if (options.insights && n % 3 === 1) {
      add({
        ...insights,
        event: { ...event, eventType: 'conversion', eventSubtype: 'purchase', objectIDs: [`i-${n}`], value: 5, currency: 'EUR' },
      });
    }
  }
  return messages;
}

/** The rows a message of mixedMessages makes in `interactions`: one per object of an Insights event, 1 for a click or conversion. */
export function interactionRows(message: { value: string }): number {
  const value = JSON.parse(message.value) as { type?: string; event?: { objectIDs: unknown[] } };
  return value.type === 'insights' ? value.event!.objectIDs.length : value.type === undefined ? 0 : 1;
}
