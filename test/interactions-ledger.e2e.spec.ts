import { randomUUID } from 'node:crypto';
import { ClickHouseService } from '@app/clickhouse';
import { chDateTime } from '@app/contracts';
import { IngestStore, IntakeKinds, validateItems, type IntakeItem, type IntakeKind } from '@app/intake';
import { OffsetsRepository } from '../apps/ingest/src/offsets.repository';
import { PartitionLedger } from '../apps/ingest/src/partition-ledger';
import { startApp, type TestApp } from './support/test-app';

/**
 * What the ingest app reads of a partition of the events topic once clicks and conversions share it, on the real
 * engine: offsets and recent ids of both tables, and a batch whose interactions failed after its search events
 * landed, completed exactly on redelivery.
 */
describe('the ingest ledger over search_events and interactions (real engine)', () => {
  let t: TestApp;
  let ch: ClickHouseService;
  let store: IngestStore;
  let kind: IntakeKind;
  let offsets: OffsetsRepository;
  beforeAll(async () => {
    t = await startApp();
    ch = t.app.get(ClickHouseService);
    store = t.app.get(IngestStore);
    kind = t.app.get(IntakeKinds).events;
    offsets = new OffsetsRepository(ch);
  });
  afterAll(() => t.close());

  const TOPIC = 'ledger-topic';
  const SENT_AT = Date.now() - 60_000;
  const searchId = randomUUID();
  const clickId = randomUUID();
  const messages: Array<Record<string, unknown>> = [
    { id: searchId, phrase: 'ledger', language: 'en', hits: 3 },
    { id: clickId, type: 'click', searchId, objectId: 'ledger-1', position: 1 },
    { type: 'conversion', searchId, objectId: 'ledger-2' },
    { type: 'click', objectId: 'ledger-bad', position: 1 },
  ];
  const items = (from = 0): IntakeItem[] =>
    messages.slice(from).map((m, i) => ({
      value: { customer: 'demo', instance: 'live', ...m },
      origin: { now: Date.now(), source: 'kafka', topic: TOPIC, partition: 0, offset: from + i, timestamp: String(SENT_AT) },
      messageHash: String(101 + from + i),
    }));
  /** The ledger's verdicts on offsets 0-3 with their messages' hashes. */
  const verdicts = async (ledger: PartitionLedger) => {
    const found: string[] = [];
    for (const offset of [0, 1, 2, 3]) {
      found.push(await Promise.resolve(ledger.verdict(offset, String(101 + offset))));
    }
    return found;
  };
  const write = (batch: IntakeItem[], token: string) => {
    const { rows, rejected } = validateItems(kind, batch);
    return store.store(kind, rows, rejected, token);
  };

  it('finds a batch whose interactions failed as partly stored, and stores the rest once when it comes again', async () => {
    await ch.command(`ALTER TABLE ${ch.table('interactions')} ADD CONSTRAINT ledger_down CHECK object_id = ''`);
    try {
      await expect(write(items(), 'ledger:0-3:a')).rejects.toThrow();
    } finally {
      await ch.command(`ALTER TABLE ${ch.table('interactions')} DROP CONSTRAINT ledger_down`);
    }
    const ledger = await PartitionLedger.open(offsets, 'search_events', TOPIC, 0);
    const first = await verdicts(ledger);
    // The rejected click (3) and the search (0) landed; the interactions did not.
    expect(first).toEqual(['stored', 'new', 'new', 'stored']);
    await write(
      items(1).filter((_, i) => i < 2),
      'ledger:0-3:b',
    );

    const again = await PartitionLedger.open(offsets, 'search_events', TOPIC, 0);
    expect(await verdicts(again)).toEqual(['stored', 'stored', 'stored', 'stored']);
    expect(await offsets.lastStored(TOPIC, 0)).toBe(3);
    const stored = await offsets.stored('search_events', TOPIC, 0, 0, 10);
    expect(stored.map((s) => s.offset).sort()).toEqual([0, 1, 2, 3]);
    const ids = await offsets.recentEventIds(TOPIC, 0, 10, 10);
    expect(ids.map((r) => r.event_id).slice(0, 2)).toEqual([searchId, `i:${clickId}`]);
    const [{ n, ts }] = await ch.query<{ n: string; ts: string }>(
      `SELECT count() AS n, toString(min(ts)) AS ts FROM ${ch.table('interactions')} WHERE topic = {t:String}`,
      { t: TOPIC },
    );
    // Without ts, the message timestamp: the same on every delivery.
    expect([Number(n), ts]).toEqual([2, chDateTime(SENT_AT)]);
  });
});
