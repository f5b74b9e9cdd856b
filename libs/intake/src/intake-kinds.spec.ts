import { createHash } from 'node:crypto';
import { loadConfig } from '@app/config';
import type { DocumentRow } from '@app/contracts';
import { IntakeKinds } from './intake-kinds';
import { VersionSequence } from './version-sequence';

const NOW = 1_700_000_000_000;
const kinds = new IntakeKinds(loadConfig({ KAFKA_TOPIC_DOCUMENTS: 'documents' }));
const fromHttp = { now: NOW, source: 'http' as const, customer: 'acme', instance: 'shop' };

describe('IntakeKinds', () => {
  it('serves each kind on its configured topic, with its table, and only events have ids and retry tokens', () => {
    expect(kinds.all().map((k) => [k.topic, k.table, k.kind])).toEqual([
      ['search-events', 'search_events', 'search-event'],
      ['documents', 'documents', 'document'],
    ]);
    expect('eventId' in kinds.documents || 'retryToken' in kinds.documents || 'order' in kinds.events).toBe(false);
  });

  it('turns an event accepted over HTTP into the message format producers write: tenant, fixed id and time, bot verdict', () => {
    const item = { phrase: ' Blue HAT ', language: 'EN', hits: 0, sessionId: 's-1', userAgent: 'Googlebot/2.1' };
    const result = kinds.events.validate(item, fromHttp);
    if (!result.ok) {
      throw new Error(result.reason);
    }
    const { key, value } = kinds.events.message(item, result.row);
    expect(key).toBe('s-1');
    expect(JSON.parse(value)).toEqual({
      phrase: ' Blue HAT ',
      language: 'EN',
      hits: 0,
      sessionId: 's-1',
      customer: 'acme',
      instance: 'shop',
      id: result.row.event_id,
      ts: NOW,
      bot: true,
    });
    // The ingest app rebuilds the same row from it.
    const again = kinds.events.validate(JSON.parse(value), { now: NOW + 5, source: 'kafka', topic: 't', partition: 0, offset: 1 });
    expect(again).toMatchObject({
      ok: true,
      row: {
        event_id: result.row.event_id,
        ts: result.row.ts,
        phrase: 'blue hat',
        language: 'en',
        bot: true,
        session_hash: result.row.session_hash,
      },
    });
  });

  it('keys an event without a session by its id', () => {
    const result = kinds.events.validate({ phrase: 'x', language: 'de', hits: 1 }, fromHttp);
    if (!result.ok) {
      throw new Error(result.reason);
    }
    expect(kinds.events.message({ phrase: 'x', language: 'de', hits: 1 }, result.row).key).toBe(result.row.event_id);
  });

  it('gives a retry token only to a request whose events all carry ids, the same for the same ids', () => {
    const id = '0190c7a4-5e4f-7b6a-9c3d-2f1e0d9c8b7a';
    expect(kinds.events.retryToken!('acme', 'shop', [{ id }, {}])).toBeUndefined();
    expect(kinds.events.retryToken!('acme', 'shop', [])).toBeUndefined();
    const token = kinds.events.retryToken!('acme', 'shop', [{ id }]);
    expect(token).toMatch(/^http:acme:shop:[0-9a-f]{64}$/);
    expect(kinds.events.retryToken!('acme', 'shop', [{ id }])).toBe(token);
    expect(kinds.events.retryToken!('acme', 'stage', [{ id }])).not.toBe(token);
  });

  it('gives a retry spelled otherwise (case, dashes) the same token, an invalid id counted as sent', () => {
    const id = '0190c7a4-5e4f-7b6a-9c3d-2f1e0d9c8b7a';
    const other = '0190c7a4-5e4f-7b6a-9c3d-2f1e0d9c8b7b';
    const token = kinds.events.retryToken!('acme', 'shop', [{ id }, { id: other }]);
    // Lower-case dashed ids, as before canonical ids: the token of such a request is unchanged.
    expect(token).toBe(`http:acme:shop:${createHash('sha256').update(`${id},${other}`).digest('hex')}`);
    for (const spelling of [id.toUpperCase(), id.replaceAll('-', ''), id.replaceAll('-', '').toUpperCase()]) {
      expect(kinds.events.retryToken!('acme', 'shop', [{ id: spelling }, { id: other }])).toBe(token);
    }
    expect(kinds.events.retryToken!('acme', 'shop', [{ id: other }, { id }])).not.toBe(token);
    // An invalid id (its item is rejected) counts as sent: the rest of the request stays protected against a retry.
    const withBad = kinds.events.retryToken!('acme', 'shop', [{ id: id.toUpperCase() }, { id: 'abc' }]);
    expect(withBad).toBe(`http:acme:shop:${createHash('sha256').update(`${id},abc`).digest('hex')}`);
    expect(kinds.events.retryToken!('acme', 'shop', [{ id }, { id: 'ABC' }])).not.toBe(withBad);
    expect(kinds.events.retryToken!('acme', 'shop', [{ id }, { id: 7 }])).toBeUndefined();
    expect(kinds.events.retryToken!('acme', 'shop', [{ id }, null])).toBeUndefined();
  });

  it('sends a document as the item with its tenant, keyed by id', () => {
    const item = { id: 'sku-1', rating: 0.5 };
    const result = kinds.documents.validate(item, fromHttp);
    if (!result.ok) {
      throw new Error(result.reason);
    }
    expect(kinds.documents.message(item, result.row)).toEqual({
      key: 'sku-1',
      value: '{"id":"sku-1","rating":0.5,"customer":"acme","instance":"shop"}',
    });
  });

  it('versions a document from Kafka by its message time in ns plus its offset modulo 1e6', () => {
    const origin = { now: NOW, source: 'kafka' as const, topic: 'documents', partition: 0, offset: 3_000_007, timestamp: '1700000000123' };
    const result = kinds.documents.validate({ customer: 'acme', instance: 'shop', id: 'sku-1' }, origin);
    expect(result).toMatchObject({ ok: true, row: { version: '1700000000123000007', partition: 0, offset: 3_000_007 } });
  });

  it('versions documents received over HTTP from a growing clock', () => {
    const versions = [1, 2, 3].map(() => {
      const result = kinds.documents.validate({ id: 'sku-1' }, fromHttp);
      if (!result.ok) {
        throw new Error(result.reason);
      }
      return BigInt(result.row.version);
    });
    expect(versions[1] > versions[0] && versions[2] > versions[1]).toBe(true);
  });

  it('orders a document behind the last version of its partition when its producer clock is behind', () => {
    const early = { version: '1600000000000000000' } as DocumentRow;
    kinds.documents.order!(early, new VersionSequence(1_700_000_000_123_000_007n));
    expect(early.version).toBe('1700000000123000008');
  });
});

describe('IntakeKinds.events: clicks and conversions', () => {
  const searchId = '0192f7a0-6c1e-7b3a-9d4f-2e8a1c5b7d90';

  it('validates an item by its type: click and conversion as interactions (origin events), search or none as search events', () => {
    const click = kinds.events.validate({ type: 'click', searchId, objectId: 'p-1', position: 3 }, fromHttp);
    expect(click).toMatchObject({ ok: true, row: { type: 'click', search_id: searchId, position: 3, origin: 'events' } });
    expect(click.ok && kinds.events.targetOf!(click.row)).toMatchObject({ table: 'interactions', tokenSuffix: 'interactions' });
    const search = kinds.events.validate({ type: 'search', id: searchId, phrase: 'x', language: 'en', hits: 1 }, fromHttp);
    expect(search).toMatchObject({ ok: true, row: { event_id: searchId, id_sent: true } });
    expect(search.ok && kinds.events.targetOf!(search.row).table).toBe('search_events');
    expect(kinds.events.validate({ phrase: 'x', language: 'en', hits: 1 }, fromHttp)).toMatchObject({ ok: true, row: { id_sent: false } });
    expect(kinds.events.validate({ type: 'view', objectId: 'p' }, fromHttp)).toEqual({
      ok: false,
      reason: 'type must be search, click or conversion',
    });
    expect(kinds.events.rejectedKind!({ type: 'conversion' }, fromHttp)).toBe('interaction');
    expect(kinds.events.rejectedKind!({ type: 'view' }, fromHttp)).toBe('search-event');
  });

  it('sends a click as the item with its tenant, id and time, which the ingest app takes back as the same row', () => {
    const item = { type: 'click', searchId, objectId: 'p-1', position: 2, sessionId: 's-9', userToken: 'u-1' };
    const result = kinds.events.validate(item, fromHttp);
    if (!result.ok) {
      throw new Error(result.reason);
    }
    const row = result.row as unknown as { interaction_id: string; ts: string; user_token_hash: string };
    const { key, value, headers } = kinds.events.message(item, result.row);
    expect([key, headers]).toEqual(['s-9', undefined]);
    expect(JSON.parse(value)).toEqual({ ...item, customer: 'acme', instance: 'shop', id: row.interaction_id, ts: NOW });
    const again = kinds.events.validate(JSON.parse(value), { now: NOW + 5, source: 'kafka', topic: 't', partition: 0, offset: 1 });
    expect(again).toMatchObject({
      ok: true,
      row: { interaction_id: row.interaction_id, ts: row.ts, user_token_hash: row.user_token_hash },
    });
    expect(kinds.events.eventId!(result.row)).toBe(`i:${row.interaction_id}`);
  });

  it('marks a search message whose id was generated with a header, and never sends type', () => {
    const item = { type: 'search', phrase: 'x', language: 'en', hits: 1 };
    const result = kinds.events.validate(item, fromHttp);
    if (!result.ok) {
      throw new Error(result.reason);
    }
    const { value, headers } = kinds.events.message(item, result.row);
    expect(headers).toEqual({ 'sa-id': 'generated' });
    expect(JSON.parse(value)).not.toHaveProperty('type');
    const again = kinds.events.validate(JSON.parse(value), { now: NOW, source: 'kafka', idGenerated: true });
    expect(again).toMatchObject({ ok: true, row: { event_id: result.row.event_id, id_sent: false } });
  });

  it('gives a Kafka interaction without ts the message timestamp, the same on every delivery', () => {
    const kafka = { now: NOW + 60_000, source: 'kafka' as const, timestamp: String(NOW), topic: 't', partition: 0, offset: 1 };
    const item = { type: 'conversion', customer: 'acme', instance: 'shop', objectId: 'p-1' };
    expect(kinds.events.validate(item, kafka)).toMatchObject({ ok: true, row: { ts: '2023-11-14 22:13:20.000' } });
  });
});
