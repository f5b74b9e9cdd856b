import { loadConfig } from '@app/config';
import { IntakeKinds, type IntakeKind } from '@app/intake';
import { FakeKafkaRun, FakeStore, eventMessage, fakeGroup, until } from '../../../test/support/fake-ingest';
import { ExactlyOnceBatches } from './exactly-once-batches';
import type { KafkaRow } from './kafka-message';
import { SHARED_WAITING_BYTES } from './shared-inserts';

const kinds = new IntakeKinds(loadConfig({}));
const TOPIC = kinds.events.topic;
const ID = '0190c3a2-7b1e-7c3d-9a4b-5e6f7a8b9c0d';
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => eventMessage(from + i));

/** Every batch part a test made: stopped afterwards, so no retry of a failed test runs on. */
const made: ExactlyOnceBatches[] = [];
afterEach(() => made.splice(0).forEach((b) => b.stop()));

/** The batch part with a fake store and kafkajs' side faked: its batches, its group, its log lines. */
function setup(shareInserts = false) {
  const store = new FakeStore();
  const kafka = new FakeKafkaRun();
  const group = fakeGroup(1);
  const logs: string[] = [];
  const batches = new ExactlyOnceBatches({
    store,
    offsets: store.offsets(),
    topics: new Map([[TOPIC, kinds.events as unknown as IntakeKind<KafkaRow>]]),
    group: () => group,
    insertsInFlight: shareInserts ? 1 : 8,
    shareInserts,
    logger: { log: (m: string) => logs.push(m), warn: (m: string) => logs.push(m), debug: () => undefined },
  });
  made.push(batches);
  const handle = (messages = range(0, 2), partition = 0) => batches.handle(kafka.payload(TOPIC, partition, messages));
  return { store, kafka, group, logs, batches, handle };
}

describe('ExactlyOnceBatches', () => {
  it('stores each offset once: a repeated event id, a re-delivered batch skipped; a new message at a stored offset stored', async () => {
    const { store, kafka, batches, handle } = setup();
    const batch = [eventMessage(0), eventMessage(1, { id: ID }), eventMessage(2), eventMessage(3, { id: ID }), eventMessage(4)];
    batch[4] = { ...batch[4], value: Buffer.from('not json') };
    await handle(batch);
    await batches.settle();
    // 3 repeats 1's event id (a producer's retry); 4 is kept as a rejected row.
    expect(store.storedOffsets(TOPIC, 0)).toEqual([0, 1, 2, 4]);
    expect(kafka.commits()).toEqual([`commit ${TOPIC}:0@5`]);

    // A crash before the commit: after the join the same messages come again, then new ones.
    batches.joined();
    await handle([...batch, ...range(5, 6)]);
    await batches.settle();
    expect(store.storedOffsets(TOPIC, 0)).toEqual([0, 1, 2, 4, 5, 6]);

    // The topic recreated: another message at a stored offset is stored.
    batches.joined();
    await handle([eventMessage(2, { phrase: 'another message' })]);
    await batches.settle();
    expect(store.storedOffsets(TOPIC, 0)).toEqual([0, 1, 2, 2, 4, 5, 6]);
    expect(kafka.commits()).toEqual([`commit ${TOPIC}:0@5`, `commit ${TOPIC}:0@7`, `commit ${TOPIC}:0@3`]);
  });

  it('retries a failed insert, commits nothing meanwhile, and commits once it is stored', async () => {
    const { store, kafka, logs, batches, handle } = setup();
    store.down = true;
    await handle();
    await until(() => store.sent.length >= 3);
    expect([store.landed, kafka.commits()]).toEqual([[], []]);
    expect(logs.filter((l) => l.startsWith('storage failed'))).toHaveLength(1); // once per outage
    store.down = false;
    await batches.settle();
    expect(store.storedOffsets(TOPIC, 0)).toEqual([0, 1, 2]);
    expect(kafka.commits()).toEqual([`commit ${TOPIC}:0@3`]);
    expect(logs.at(-1)).toMatch(/^storage answers again after \d+ failed attempts/);
    // Every attempt with the same rows under the same token: one that landed unanswered makes the next a repeat.
    expect(new Set(store.tokens).size).toBe(1);
  });

  it('on the embedded engine, sends the batches waiting for the insert together, retried as one under one token', async () => {
    const { store, kafka, batches, handle } = setup(true);
    const [first, shared] = [store.hold(), store.hold()];
    await handle(range(0, 2), 0);
    await until(() => store.sent.length === 1);
    await handle(range(0, 1), 1);
    const after = handle(range(5, 7), 0); // handed back, then waits for partition 0's first batch
    await handle(range(0, 0), 2);
    await until(() => kafka.log.includes(`resolve ${TOPIC}:0@7`));
    first.release();
    await after;
    store.down = true; // the shared insert fails until storage is back
    shared.release();
    await until(() => store.sent.length >= 4);
    store.down = false;
    await batches.settle();
    // The first batch alone; the three that waited in one insert, each attempt with the same rows and token.
    expect(store.landed).toHaveLength(2);
    expect(new Set(store.tokens.slice(1)).size).toBe(1);
    expect(store.tokens[1]).toMatch(/^shared:/);
    expect([0, 1, 2].map((p) => store.storedOffsets(TOPIC, p))).toEqual([[0, 1, 2, 5, 6, 7], [0, 1], [0]]);
    expect(kafka.commits().filter((c) => c.startsWith(`commit ${TOPIC}:0@`))).toEqual([`commit ${TOPIC}:0@3`, `commit ${TOPIC}:0@8`]);
    expect(kafka.commits().sort()).toEqual([`commit ${TOPIC}:0@3`, `commit ${TOPIC}:0@8`, `commit ${TOPIC}:1@2`, `commit ${TOPIC}:2@1`]);
  });

  it('on the embedded engine, still sends the batches waiting for the insert once told to stop, and commits them', async () => {
    const { store, kafka, batches, handle } = setup(true);
    const first = store.hold();
    await handle(range(0, 2), 0);
    await until(() => store.sent.length === 1);
    await handle(range(0, 1), 1); // waits for the insert slot
    batches.stop(); // SIGTERM: a batch waiting for its slot is sent, only retries give up
    first.release();
    await batches.settle();
    expect([store.storedOffsets(TOPIC, 0), store.storedOffsets(TOPIC, 1)]).toEqual([
      [0, 1, 2],
      [0, 1],
    ]);
    expect(kafka.commits().sort()).toEqual([`commit ${TOPIC}:0@3`, `commit ${TOPIC}:1@2`]);
  });

  it('on the embedded engine, hands a batch back at once while the insert has room: the next ones join one insert', async () => {
    const { store, kafka, batches, handle } = setup(true);
    const first = store.hold();
    await handle(range(0, 2), 0);
    await until(() => store.sent.length === 1);
    // Neither waits for the batch before (a broker that hands out one small batch per fetch still fills an insert).
    await handle(range(3, 5), 0);
    await handle(range(6, 8), 0);
    expect(kafka.commits()).toEqual([]);
    first.release();
    await batches.settle();
    expect(store.landed).toHaveLength(2);
    expect(store.storedOffsets(TOPIC, 0)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(kafka.commits()).toEqual([`commit ${TOPIC}:0@3`, `commit ${TOPIC}:0@6`, `commit ${TOPIC}:0@9`]);
  });

  it('on the embedded engine, commits nothing of an abandoned chain handed back at once, stores it once after the rejoin', async () => {
    const { store, kafka, group, batches, handle } = setup(true);
    const first = store.hold();
    await handle(range(0, 2), 0);
    await until(() => store.sent.length === 1);
    await handle(range(3, 5), 0);
    await handle(range(6, 8), 0);
    group.generationId = 2; // the group moved on: the insert the two wait for is abandoned unsent
    first.release();
    await batches.settle();
    expect([store.storedOffsets(TOPIC, 0), kafka.commits()]).toEqual([[0, 1, 2], [`commit ${TOPIC}:0@3`]]);
    // kafkajs fetched past them: the next batch goes back as a rebalance, so kafkajs rejoins and fetches again.
    await expect(handle(range(9, 9), 0)).rejects.toMatchObject({ type: 'REBALANCE_IN_PROGRESS' });
    batches.joined();
    await handle(range(3, 9), 0);
    await batches.settle();
    expect(store.storedOffsets(TOPIC, 0)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(kafka.commits()).toEqual([`commit ${TOPIC}:0@3`, `commit ${TOPIC}:0@10`]);
  });

  it('on the embedded engine, waits for the batch before once the messages waiting hold SHARED_WAITING_BYTES', async () => {
    const { store, kafka, batches, handle } = setup(true);
    const first = store.hold();
    await handle(range(0, 2), 0);
    await until(() => store.sent.length === 1);
    // Two large messages, with fewer rows than an insert holds: what they hold in memory counts.
    const large = [3, 4].map((offset) => eventMessage(offset, { note: 'x'.repeat(SHARED_WAITING_BYTES / 2) }));
    let back = false;
    const full = handle(large, 0).then(() => (back = true));
    await until(() => kafka.log.includes(`resolve ${TOPIC}:0@4`));
    expect(back).toBe(false);
    first.release();
    await full;
    await batches.settle();
    expect(store.storedOffsets(TOPIC, 0)).toEqual([0, 1, 2, 3, 4]);
    expect(kafka.commits()).toEqual([`commit ${TOPIC}:0@3`, `commit ${TOPIC}:0@5`]);
  });

  it('writes what is left of a batch delivered again under another token than the whole had', async () => {
    // The engine drops an insert whose token it has stored, whatever its rows. A write the store split (a row it
    // refused) and that failed after its first half landed leaves that half's token stored: the rest of the batch,
    // delivered again, must not be written under the same tokens, or its own first half would be dropped as a repeat.
    const { store, kafka, group, batches, handle } = setup();
    store.failAfter = 2;
    await handle(range(0, 3));
    await until(() => store.sent.length >= 1);
    group.generationId = 2; // the partition moves to another member before the retry: the batch is abandoned
    await batches.settle();
    expect(store.storedOffsets(TOPIC, 0)).toEqual([0, 1]);
    batches.joined();
    await handle(range(0, 3));
    await batches.settle();
    expect(store.storedOffsets(TOPIC, 0)).toEqual([0, 1, 2, 3]);
    expect(kafka.commits()).toEqual([`commit ${TOPIC}:0@4`]);
    const [whole, rest] = [store.tokens[0], store.tokens.at(-1)];
    expect(rest).not.toBe(whole);
  });

  it('retries reading what a partition stored while storage is down, logs the outage once, stores the batch once back', async () => {
    const { store, kafka, logs, batches, handle } = setup();
    store.readsDown = true; // a partition's first batch reads what is stored before anything is inserted
    const handled = handle();
    await until(() => store.reads >= 3);
    expect([store.sent, kafka.commits()]).toEqual([[], []]);
    expect(logs.filter((l) => l.startsWith('storage failed'))).toHaveLength(1); // once per outage
    store.readsDown = false;
    await handled; // not thrown to kafkajs, which would log an error per attempt
    await batches.settle();
    expect(store.storedOffsets(TOPIC, 0)).toEqual([0, 1, 2]);
    expect(kafka.commits()).toEqual([`commit ${TOPIC}:0@3`]);
    expect(logs.at(-1)).toMatch(/^storage answers again after [3-9]\d* failed attempts/);
  });

  it('abandons a retried batch unsent once the member lost its generation, and refuses batches until it rejoined', async () => {
    const { store, kafka, group, logs, batches, handle } = setup();
    store.down = true;
    await handle(range(0, 2));
    await until(() => store.sent.length >= 1);
    group.generationId = 2; // the group moved on while the insert was retried
    store.down = false; // storage is back: an attempt now would land
    await batches.settle();
    expect([store.landed, kafka.commits()]).toEqual([[], []]);
    expect(logs).toContainEqual(expect.stringMatching(/^membership not confirmed before an insert/));
    // kafkajs fetched past it: the next batch goes back as a rebalance, so kafkajs rejoins and fetches again.
    await expect(handle(range(3, 4))).rejects.toMatchObject({ type: 'REBALANCE_IN_PROGRESS' });
    expect(store.sent).toHaveLength(1);

    batches.joined();
    await handle(range(0, 4));
    await batches.settle();
    expect(store.storedOffsets(TOPIC, 0)).toEqual([0, 1, 2, 3, 4]);
    expect(kafka.commits()).toEqual([`commit ${TOPIC}:0@5`]);
  });

  it('abandons a retried batch once its partition is revoked, and hands the rebalance back only once no attempt runs', async () => {
    const { store, kafka, batches, handle } = setup();
    store.down = true;
    await handle(range(0, 2)); // handed back: its insert is retried in flight
    const next = handle(range(3, 5)); // waits for the one before, heartbeating
    await until(() => store.sent.length >= 2);
    kafka.revoke(TOPIC, 0);
    const err = await next.catch((e: unknown) => e);
    expect(err).toMatchObject({ type: 'REBALANCE_IN_PROGRESS' });
    const attempts = store.sent.length;
    store.down = false;
    await batches.settle();
    await new Promise((r) => setTimeout(r, 500));
    expect([store.sent.length, store.landed, kafka.commits()]).toEqual([attempts, [], []]);
  });

  it('stops sending a retried insert once kafkajs is about to rejoin (which it does once no attempt runs)', async () => {
    const { store, kafka, batches, handle } = setup();
    store.down = true;
    await handle();
    await until(() => store.sent.length >= 1);
    await batches.beforeRejoin();
    const attempts = store.sent.length;
    store.down = false;
    await new Promise((r) => setTimeout(r, 500));
    expect([store.sent.length, store.landed, kafka.commits()]).toEqual([attempts, [], []]);
  });

  it('commits in offset order when the later batch of a partition is stored first', async () => {
    const { store, kafka, batches, handle } = setup();
    const slow = store.hold();
    await handle(range(0, 2)); // handed back while its insert is under way
    const later = handle(range(3, 5));
    await until(() => store.landed.length === 1);
    expect(store.landed).toEqual([`${TOPIC}:0:3-5`]);
    expect(kafka.commits()).toEqual([]);
    slow.release();
    await later;
    await batches.settle();
    expect(store.landed).toEqual([`${TOPIC}:0:3-5`, `${TOPIC}:0:0-2`]);
    expect(kafka.commits()).toEqual([`commit ${TOPIC}:0@3`, `commit ${TOPIC}:0@6`]);
  });
});

describe('ExactlyOnceBatches with clicks and conversions in the events topic', () => {
  const click = (offset: number, id?: string) =>
    eventMessage(offset, {
      type: 'click',
      searchId: ID,
      objectId: `p-${offset}`,
      position: 1,
      phrase: undefined,
      language: undefined,
      hits: undefined,
      id,
    });

  it('stores searches and interactions of a batch once, a click id apart from a search id, also after a write cut short', async () => {
    const { store, kafka, group, batches, handle } = setup();
    const clickId = '0190c3a2-7b1e-7c3d-9a4b-000000000001';
    // 1 and 2 share an id across kinds (both stored); 4 repeats 2's click id (a producer's retry: dropped).
    const batch = [eventMessage(0), eventMessage(1, { id: ID }), click(2, ID), click(3, clickId), click(4, ID), click(5)];
    store.failAfter = 3; // the search events and one click land, then storage fails
    await handle(batch);
    await until(() => store.sent.length >= 1);
    group.generationId = 2; // the partition moves before the retry: the batch is abandoned
    await batches.settle();
    expect(store.storedOffsets(TOPIC, 0)).toEqual([0, 1, 2]);
    // Delivered again (to the next owner): what landed is skipped, the rest stored once.
    batches.joined();
    await handle([...batch, click(6)]);
    await batches.settle();
    expect(store.storedOffsets(TOPIC, 0)).toEqual([0, 1, 2, 3, 5, 6]);
    expect(kafka.commits()).toEqual([`commit ${TOPIC}:0@7`]);
  });
});

describe('ExactlyOnceBatches with Insights events in the events topic (one message, several rows)', () => {
  const receivedAt = Date.now() - 60_000;
  /** An Insights click with three objects, as the query app writes it (InsightsMessage). */
  const insights = (offset: number, id?: string) => ({
    ...eventMessage(offset),
    value: Buffer.from(
      JSON.stringify({
        type: 'insights',
        customer: 'acme',
        instance: 'shop',
        id,
        receivedAt,
        event: { eventType: 'click', eventName: `e${offset}`, index: 'products', objectIDs: ['a', 'b', 'c'] },
      }),
    ),
  });

  it('stores the rows of a message together once: re-delivered after a crash, or repeated by a producer’s retry', async () => {
    const { store, kafka, batches, handle } = setup();
    const eventId = '0190c3a2-7b1e-7c3d-9a4b-000000000002';
    // 3 repeats 1 (same id: a producer's retry, dropped whole); 2 has no id (its row ids drawn).
    const batch = [eventMessage(0), insights(1, eventId), insights(2), insights(3, eventId), eventMessage(4)];
    await handle(batch);
    await batches.settle();
    expect(store.storedOffsets(TOPIC, 0)).toEqual([0, 1, 1, 1, 2, 2, 2, 4]);
    // Delivered again after the rows landed (a crash before the commit), with a later retry of 1 and a new event.
    batches.joined();
    await handle([...batch, insights(5, eventId), insights(6)]);
    await batches.settle();
    expect(store.storedOffsets(TOPIC, 0)).toEqual([0, 1, 1, 1, 2, 2, 2, 4, 6, 6, 6]);
    expect(kafka.commits()).toEqual([`commit ${TOPIC}:0@5`, `commit ${TOPIC}:0@7`]);
  });
});
