import { loadConfig } from '@app/config';
import { IntakeKinds } from '@app/intake';
import { InsightsSource } from './insights-source';

const NOW = Date.now() - 60_000;
const config = loadConfig({});
const source = new InsightsSource(config);
const kinds = new IntakeKinds(config);
const fromHttp = { now: NOW, source: 'http' as const, customer: 'acme', instance: 'shop' };
const QUERY = '0190c7a45e4f7b6a9c3d2f1e0d9c8b7a';

describe('InsightsSource on the Kafka transport', () => {
  it('makes one message per event, which the ingest app takes back into the same rows, the same on every delivery', () => {
    const event = {
      eventType: 'conversion',
      eventSubtype: 'purchase',
      eventName: 'Bought',
      index: 'products',
      userToken: 'anon-1',
      queryID: QUERY,
      objectIDs: ['a', 'b'],
      objectData: [{ price: '10.5', quantity: 2 }, { price: 3 }],
      currency: 'eur',
      unknownField: true,
    };
    const result = source.validate(event, fromHttp);
    if (!result.ok) {
      throw new Error(result.reason);
    }
    const rows = [result.row, ...(result.more ?? [])];
    const { key, value } = source.message(event, result.row);
    expect(key).toBe(result.row.interaction_id);
    expect(JSON.parse(value)).toEqual({
      type: 'insights',
      customer: 'acme',
      instance: 'shop',
      id: result.row.interaction_id,
      receivedAt: NOW,
      event,
    });
    const kafka = { now: Date.now(), source: 'kafka' as const, topic: 't', partition: 1, offset: 7, timestamp: String(Date.now()) };
    for (const delivery of [kafka, { ...kafka, now: kafka.now + 1000 }]) {
      const again = kinds.events.validate(JSON.parse(value), delivery);
      expect(again.ok && [again.row, ...(again.more ?? [])]).toEqual(
        rows.map((row) => ({ ...row, source: 'kafka', topic: 't', partition: 1, offset: 7 })),
      );
      expect(again.ok && kinds.events.targetOf!(again.row).table).toBe('interactions');
    }
    expect(rows.map((r) => [r.object_id, r.value, r.ts])).toEqual([
      ['a', 24, rows[0].ts],
      ['b', 0, rows[0].ts],
    ]);
  });

  it('is refused as an item of POST /events, and kept as kind interaction when a Kafka message is wrong', () => {
    const message = { type: 'insights', customer: 'acme', instance: 'shop', event: { eventType: 'click' } };
    expect(kinds.events.validate(message, fromHttp)).toEqual({ ok: false, reason: 'type must be search, click or conversion' });
    expect(kinds.events.rejectedKind!(message, fromHttp)).toBe('search-event');
    const kafka = { now: Date.now(), source: 'kafka' as const };
    expect(kinds.events.validate(message, kafka)).toEqual({
      ok: false,
      reason: 'event: eventName must be a string of 1 to 64 characters',
    });
    expect(kinds.events.rejectedKind!(message, kafka)).toBe('interaction');
  });
});
