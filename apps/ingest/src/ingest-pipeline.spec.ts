import type { KafkaMessage } from 'kafkajs';
import type { AppConfig } from '@app/config';
import type { DocumentRow } from '@app/contracts';
import type { DocumentsRepository, IngestRow, SearchEventValidator, SearchEventsRepository } from '@app/events';
import {
  VersionSequence,
  decodeMessage,
  ingestPipelines,
  messageHash,
  type IngestPipeline,
  type KafkaRow,
  type MessageContext,
} from './ingest-pipeline';

const NOW = 1_700_000_000_000;
const ctx: MessageContext = { now: NOW, topic: 'search-events', partition: 3, offset: 42, timestamp: '1699999999000' };

function message(value: Buffer | string | null, timestamp = ctx.timestamp): KafkaMessage {
  return {
    key: null,
    value: typeof value === 'string' ? Buffer.from(value, 'utf8') : value,
    timestamp,
    attributes: 0,
    offset: String(ctx.offset),
    headers: {},
  } as KafkaMessage;
}

type Validate = IngestPipeline['validate'];

function pipeline(validate: Validate = () => ({ ok: true, row: row() })): IngestPipeline & { validate: jest.Mock } {
  return { table: 'search_events', kind: 'search-event', validate: jest.fn(validate), write: jest.fn() } as never;
}

function row(): IngestRow {
  return { customer: 'acme', instance: 'shop', source: 'kafka', topic: ctx.topic, partition: ctx.partition, offset: ctx.offset };
}

describe('messageHash', () => {
  // Computed independently: the first 8 bytes of md5("<timestamp>\n<value>") as an unsigned big-endian integer, | 1.
  it('is the first 8 bytes of md5 over timestamp, newline and value, as an unsigned decimal with the low bit set', () => {
    // md5 prefix 1310634335136079496 is even: the low bit is what keeps it from ever being 0.
    expect(messageHash({ timestamp: '1700000000000', value: Buffer.from('{"a":0}') })).toBe('1310634335136079497');
    // md5 prefix above 2^63: read unsigned, not as a negative Int64.
    expect(messageHash({ timestamp: '1700000000000', value: Buffer.from('{"a":8}') })).toBe('13132553594871437537');
  });

  it('returns the same hash for the same message on every call', () => {
    const m = { timestamp: '1700000000000', value: Buffer.from('{"id":"x"}') };
    expect(messageHash(m)).toBe(messageHash({ ...m, value: Buffer.from('{"id":"x"}') }));
  });

  it('changes when only the timestamp changes (a recreated topic with the same payload at an old offset)', () => {
    const value = Buffer.from('{"id":"x"}');
    expect(messageHash({ timestamp: '1700000000000', value })).not.toBe(messageHash({ timestamp: '1700000000001', value }));
  });

  it('changes when only the value changes', () => {
    const one = messageHash({ timestamp: '1', value: Buffer.from('{"a":1}') });
    expect(one).not.toBe(messageHash({ timestamp: '1', value: Buffer.from('{"a":2}') }));
  });

  it('keeps timestamp and value apart (the digits cannot slide into the value)', () => {
    expect(messageHash({ timestamp: '12', value: Buffer.from('3') })).not.toBe(messageHash({ timestamp: '1', value: Buffer.from('23') }));
  });

  it('hashes a message without a value like an empty one instead of throwing', () => {
    expect(messageHash({ timestamp: '5', value: null })).toBe(messageHash({ timestamp: '5', value: Buffer.alloc(0) }));
  });

  it('is never "0" (the mark of rows stored before hashes were kept) and always fits an unsigned 64-bit integer', () => {
    for (let i = 0; i < 500; i++) {
      const hash = messageHash({ timestamp: String(i), value: Buffer.from(`{"i":${i}}`) });
      expect(hash).toMatch(/^[1-9][0-9]*$/);
      expect(BigInt(hash) % 2n).toBe(1n);
      expect(BigInt(hash) < 2n ** 64n).toBe(true);
    }
  });
});

describe('decodeMessage', () => {
  const HASH = '12345';
  const rejectedBase = {
    kind: 'search-event',
    source: 'kafka',
    topic: ctx.topic,
    partition: ctx.partition,
    offset: ctx.offset,
    item_index: -1,
    received_at: '2023-11-14 22:13:20.000',
    message_hash: HASH,
  };

  it('returns the validated row with the message hash for a good message, validating the parsed JSON with the context', () => {
    const good = row();
    const p = pipeline(() => ({ ok: true, row: good }));
    const result = decodeMessage(p, message('{"customer":"acme","q":"shoes"}'), ctx, HASH);
    expect(result).toEqual({ row: { ...row(), message_hash: HASH } });
    expect((result as { row: KafkaRow }).row).toBe(good);
    expect(p.validate).toHaveBeenCalledWith({ customer: 'acme', q: 'shoes' }, ctx);
  });

  it('rejects a value that is not JSON with reason "not JSON", its raw text and its offset, without validating', () => {
    const p = pipeline();
    expect(decodeMessage(p, message('{"customer":"acme",'), ctx, HASH)).toEqual({
      rejected: { ...rejectedBase, customer: '', instance: '', raw: '{"customer":"acme",', reason: 'not JSON' },
    });
    expect(p.validate).not.toHaveBeenCalled();
  });

  it('rejects a message without a value as "not JSON" with empty raw text', () => {
    expect(decodeMessage(pipeline(), message(null), ctx, HASH)).toEqual({
      rejected: { ...rejectedBase, customer: '', instance: '', raw: '', reason: 'not JSON' },
    });
  });

  it('rejects invalid UTF-8 even when the text decodes to valid JSON, still naming its customer and instance', () => {
    const value = Buffer.concat([Buffer.from('{"customer":"acme","instance":"shop","q":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
    const p = pipeline();
    const result = decodeMessage(p, message(value), ctx, HASH);
    expect(result).toEqual({
      rejected: {
        ...rejectedBase,
        customer: 'acme',
        instance: 'shop',
        raw: '{"customer":"acme","instance":"shop","q":"\uFFFD\uFFFD"}',
        reason: 'message is not valid UTF-8',
      },
    });
    expect(p.validate).not.toHaveBeenCalled();
  });

  it('names invalid UTF-8, not "not JSON", when the value is both', () => {
    const result = decodeMessage(pipeline(), message(Buffer.from([0x7b, 0xc3])), ctx, HASH);
    expect(result).toMatchObject({ rejected: { reason: 'message is not valid UTF-8', customer: '', instance: '' } });
  });

  it('rejects with the validator reason, keeping customer and instance when they are strings', () => {
    const p = pipeline(() => ({ ok: false, reason: 'query is required' }));
    const raw = '{"customer":"acme","instance":"shop","q":1}';
    expect(decodeMessage(p, message(raw), ctx, HASH)).toEqual({
      rejected: { ...rejectedBase, customer: 'acme', instance: 'shop', raw, reason: 'query is required' },
    });
  });

  it('leaves customer and instance empty when they are not strings', () => {
    const p = pipeline(() => ({ ok: false, reason: 'bad' }));
    const result = decodeMessage(p, message('{"customer":42,"instance":{"name":"shop"}}'), ctx, HASH);
    expect(result).toMatchObject({ rejected: { customer: '', instance: '', reason: 'bad' } });
  });

  it('leaves customer and instance empty when they hold a lone surrogate (not storable as UTF-8)', () => {
    const p = pipeline(() => ({ ok: false, reason: 'bad' }));
    const result = decodeMessage(p, message('{"customer":"ac\\ud800me","instance":"sh\\udfffop"}'), ctx, HASH);
    expect(result).toMatchObject({ rejected: { customer: '', instance: '', reason: 'bad' } });
  });

  it('leaves customer and instance empty when the JSON is not an object', () => {
    const p = pipeline(() => ({ ok: false, reason: 'not an object' }));
    for (const raw of ['null', '"acme"', '42', '[{"customer":"acme"}]']) {
      const result = decodeMessage(p, message(raw), ctx, HASH);
      expect(result).toMatchObject({ rejected: { customer: '', instance: '', raw, reason: 'not an object' } });
    }
  });
});

describe('VersionSequence', () => {
  it("takes a message's own version when it is above the last one", () => {
    const versions = new VersionSequence(100n);
    expect(versions.next(150n)).toBe(150n);
    expect(versions.next(151n)).toBe(151n);
  });

  it('gives last + 1 when the own version equals the last one', () => {
    expect(new VersionSequence(100n).next(100n)).toBe(101n);
  });

  it('keeps growing by one while a producer clock lags behind, then follows the clock again once it is ahead', () => {
    const versions = new VersionSequence(1_000n);
    expect([5n, 999n, 1n, 2_000n, 1_500n].map((own) => versions.next(own))).toEqual([1_001n, 1_002n, 1_003n, 2_000n, 2_001n]);
  });

  it('starts from 0 when nothing is stored', () => {
    const versions = new VersionSequence(0n);
    expect(versions.next(0n)).toBe(1n);
    expect(versions.next(1_699_999_999_000_000_042n)).toBe(1_699_999_999_000_000_042n);
  });
});

describe('ingestPipelines (documents topic)', () => {
  const config = { kafka: { topicSearchEvents: 'search-events', topicDocuments: 'documents' } } as AppConfig;
  const documents = { write: jest.fn() } as unknown as DocumentsRepository;
  const events = { write: jest.fn() } as unknown as SearchEventsRepository;
  const pipelines = ingestPipelines(config, {} as SearchEventValidator, events, documents);
  const docs = pipelines.get('documents')!;

  it('serves the two configured topics, each with its table and rejected kind', () => {
    expect([...pipelines.keys()]).toEqual(['search-events', 'documents']);
    expect(pipelines.get('search-events')).toMatchObject({ table: 'search_events', kind: 'search-event' });
    expect(docs).toMatchObject({ table: 'documents', kind: 'document' });
    expect(docs.order).toBeDefined();
    expect(docs.eventId).toBeUndefined();
  });

  it('versions a document by its message time in ns plus its offset modulo 1e6', () => {
    const m: MessageContext = { now: NOW, topic: 'documents', partition: 0, offset: 3_000_007, timestamp: '1700000000123' };
    const result = docs.validate({ customer: 'acme', instance: 'shop', id: 'sku-1' }, m);
    expect(result).toMatchObject({ ok: true, row: { version: '1700000000123000007', partition: 0, offset: 3_000_007 } });
  });

  it('orders a document behind the last version of its partition when its producer clock is behind', () => {
    const versions = new VersionSequence(1_700_000_000_123_000_007n);
    const early = { version: '1600000000000000000' } as unknown as KafkaRow & DocumentRow;
    docs.order!(early, versions);
    expect(early.version).toBe('1700000000123000008');
  });
});
