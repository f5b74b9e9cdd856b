import { Logger } from '@nestjs/common';
import {
  Kafka,
  logLevel,
  type Admin,
  type ConsumerConfig,
  type ConsumerRunConfig,
  type EachBatchPayload,
  type PartitionAssigner,
} from 'kafkajs';
import { loadConfig } from '@app/config';
import { IntakeKinds, type IngestStore } from '@app/intake';
import type { KafkaService } from '@app/kafka';
import { MetricsService } from '@app/metrics';
import { FakeKafkaRun, FakeStore, eventMessage, fakeGroup, until } from '../../../test/support/fake-ingest';
import type { DuplicateOffsets } from './duplicate-offsets';
import { IngestConsumer } from './ingest.consumer';
import { afterBarriers } from './rejoin-barrier';

const EVENTS = new Kafka({ brokers: ['127.0.0.1:1'], logLevel: logLevel.NOTHING }).consumer({ groupId: 'x' }).events;
const config = loadConfig({ KAFKA_BROKERS: '127.0.0.1:1', KAFKA_TOPIC_DOCUMENTS: 'documents' });
const TOPIC = config.kafka.topicSearchEvents;

/** kafkajs' consumer as IngestConsumer drives it: its listeners, and what it was asked, in `log`. */
class FakeConsumer {
  readonly events = EVENTS;
  private readonly listeners = new Map<string, Array<(event: { payload: unknown }) => void>>();
  eachBatch?: (payload: EachBatchPayload) => Promise<void>;

  constructor(
    readonly config: ConsumerConfig,
    private readonly log: string[],
  ) {}

  on(event: string, listener: (event: { payload: unknown }) => void) {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return () => undefined;
  }

  emit(event: string, payload: unknown): void {
    for (const listener of this.listeners.get(event) ?? []) {
      listener({ payload });
    }
  }

  connect = () => Promise.resolve();
  subscribe = ({ topics }: { topics: string[] }) => Promise.resolve(void this.log.push(`subscribe ${topics.join(',')}`));
  run = (run: ConsumerRunConfig) => Promise.resolve(void (this.eachBatch = run.eachBatch));
  resume = (topics: Array<{ topic: string }>) => void this.log.push(`resume ${topics.map((t) => t.topic).join(',')}`);
  disconnect = () => Promise.resolve(void this.log.push('disconnect'));

  /** kafkajs' join or leave of the group, run as kafkajs runs it: after the barriers of its assigners. */
  groupMethod(group: ReturnType<typeof fakeGroup>, name: string): Promise<unknown> {
    const assigners = (this.config.partitionAssigners ?? []).map((make: PartitionAssigner) =>
      make({ groupId: group.groupId, logger: undefined as never, cluster: undefined as never }),
    );
    const method = afterBarriers(() => Promise.resolve(void this.log.push(name)));
    return method.call(Object.assign(group, { assigners }) as never);
  }
}

/** IngestConsumer with kafkajs, the broker's admin and the store faked; `log` tells what kafkajs was asked, in order. */
async function started() {
  const store = new FakeStore();
  const run = new FakeKafkaRun();
  const consumers: FakeConsumer[] = [];
  const metrics = new MetricsService();
  const admin = {
    connect: () => Promise.resolve(),
    disconnect: () => Promise.resolve(),
    fetchTopicOffsets: () => Promise.resolve([{ partition: 0, offset: '10', high: '10', low: '0' }]),
    fetchOffsets: ({ topics }: { topics: string[] }) =>
      Promise.resolve([{ topic: topics[0], partitions: [{ partition: 0, offset: '4' }] }]),
  };
  const kafka = {
    enabled: true,
    consumer: (consumerConfig: ConsumerConfig) => consumers[consumers.push(new FakeConsumer(consumerConfig, run.log)) - 1],
    quietAdmin: () => admin as unknown as Admin,
  };
  const duplicates = { repair: () => Promise.resolve(0) } as unknown as DuplicateOffsets;
  const consumer = new IngestConsumer(
    config,
    kafka as unknown as KafkaService,
    store.offsets(),
    metrics,
    store as unknown as IngestStore,
    duplicates,
    new IntakeKinds(config),
  );
  await consumer.onApplicationBootstrap();
  const group = fakeGroup(1);
  const kafkajs = () => consumers.at(-1)!;
  /** A join as kafkajs makes it: the barrier, the join, then GROUP_JOIN with the assignment. */
  const join = async (partitions: number[]) => {
    await kafkajs().groupMethod(group, 'join');
    kafkajs().emit(EVENTS.GROUP_JOIN, { memberAssignment: { [TOPIC]: partitions } });
  };
  const batch = (from: number, to: number) =>
    kafkajs().eachBatch!(
      run.payload(
        TOPIC,
        0,
        Array.from({ length: to - from + 1 }, (_, i) => eventMessage(from + i)),
      ),
    );
  return { consumer, consumers, kafkajs, store, run, metrics, join, batch };
}

beforeAll(() => {
  Logger.overrideLogger(false);
});
const running: IngestConsumer[] = [];
afterEach(async () => {
  for (const consumer of running.splice(0)) {
    await consumer.beforeApplicationShutdown();
  }
});
async function start() {
  const setup = await started();
  running.push(setup.consumer);
  return setup;
}

describe('IngestConsumer (the group part)', () => {
  it('subscribes to every kind, and at each join takes the assignment in order, clears pauses and turns ready', async () => {
    const { consumer, kafkajs, run, join } = await start();
    expect(kafkajs().config.partitionAssigners).toHaveLength(1);
    expect(run.log).toEqual([`subscribe ${TOPIC},documents`]);
    expect(consumer.membership()).toMatchObject({ joined: false });

    await join([3, 0, 2]);
    const assignment = consumer.assignment();
    expect(assignment).toEqual({ [TOPIC]: [0, 2, 3], documents: [] });
    assignment[TOPIC].push(7); // a copy: the consumer's own is untouched
    expect(consumer.assignment()[TOPIC]).toEqual([0, 2, 3]);
    expect(run.log.slice(1)).toEqual(['join', `resume ${TOPIC},documents`]);
    expect(consumer.membership()).toEqual({ joined: true });

    kafkajs().emit(EVENTS.CRASH, { error: new Error('boom'), restart: true });
    expect(consumer.membership()).toEqual({ joined: false, reason: 'the consumer crashed (boom)' });
  });

  it('starts a new consumer 1 s after a crash kafkajs does not restart from, and leaves a retriable one to kafkajs', async () => {
    const { consumer, consumers, kafkajs, run, join } = await start();
    await join([0, 1]);
    kafkajs().emit(EVENTS.CRASH, { error: new Error('retriable'), restart: true });
    await new Promise((r) => setTimeout(r, 1200));
    expect(consumers).toHaveLength(1);

    kafkajs().emit(EVENTS.CRASH, { error: new Error('fatal'), restart: false });
    await until(() => consumers.length === 2, 2000);
    expect(run.log.slice(-2)).toEqual(['disconnect', `subscribe ${TOPIC},documents`]);
    expect(consumer.assignment()).toEqual({}); // until the new consumer joins
    await join([1]);
    expect(consumer.assignment()).toEqual({ [TOPIC]: [1], documents: [] });
  });

  it('lets kafkajs rejoin only once the batch in flight is stored and committed', async () => {
    const { store, run, join, batch } = await start();
    await join([0]);
    const slow = store.hold();
    await batch(0, 2); // handed back to kafkajs while its insert is under way
    await until(() => store.sent.length === 1);
    const rejoined = join([0, 1]);
    await new Promise((r) => setTimeout(r, 300));
    expect(run.log.filter((l) => l === 'join')).toHaveLength(1);
    slow.release();
    await rejoined;
    expect(run.log.slice(-3)).toEqual([`commit ${TOPIC}:0@3`, 'join', `resume ${TOPIC},documents`]);
  });

  it('stores and commits the batch in flight before it leaves the group at shutdown', async () => {
    const { consumer, store, run, join, batch } = await start();
    await join([0]);
    const slow = store.hold();
    await batch(0, 2);
    await until(() => store.sent.length === 1);
    const stopped = consumer.beforeApplicationShutdown();
    await new Promise((r) => setTimeout(r, 300));
    expect(run.log).not.toContain('disconnect');
    slow.release();
    await stopped;
    expect(run.log.slice(-2)).toEqual([`commit ${TOPIC}:0@3`, 'disconnect']);
    expect(await consumer.health()).toMatchObject({ running: false });
  });

  it("probes the broker for every assigned partition's lag, and drops the figures of partitions no longer assigned", async () => {
    const { consumer, metrics, join } = await start();
    await join([0]);
    await until(async () => (await consumer.health()).lag === 6, 4000);
    expect(await consumer.health()).toMatchObject({ running: true, stalled: false, lag: 6 });
    expect((await metrics.consumerLag.get()).values).toEqual([{ labels: { topic: TOPIC, partition: '0' }, value: 6 }]);
    await join([]);
    expect((await metrics.consumerLag.get()).values).toEqual([]);
  });
});
