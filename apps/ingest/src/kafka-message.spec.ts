import type { KafkaMessage } from 'kafkajs';
import type { ItemOrigin } from '@app/contracts';
import { decodeMessage, messageHash } from './kafka-message';

const NOW = 1_700_000_000_000;
const origin: ItemOrigin = { now: NOW, source: 'kafka', topic: 'search-events', partition: 3, offset: 42, timestamp: '1699999999000' };
const HASH = '12345';

function message(value: Buffer | string | null, timestamp = '1699999999000'): KafkaMessage {
  return {
    key: null,
    value: typeof value === 'string' ? Buffer.from(value, 'utf8') : value,
    timestamp,
    attributes: 0,
    offset: String(origin.offset),
    headers: {},
  };
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
  it('gives the parsed value with its origin, raw text and hash, and no problem, for UTF-8 JSON', () => {
    expect(decodeMessage(message('{"customer":"acme","q":"shoes"}'), origin, HASH)).toEqual({
      value: { customer: 'acme', q: 'shoes' },
      origin,
      raw: '{"customer":"acme","q":"shoes"}',
      problem: undefined,
      messageHash: HASH,
    });
  });

  it('names a value that is not JSON, keeping its raw text', () => {
    expect(decodeMessage(message('{"customer":"acme",'), origin, HASH)).toMatchObject({
      raw: '{"customer":"acme",',
      problem: 'not JSON',
      messageHash: HASH,
    });
  });

  it('treats a message without a value as not JSON with empty raw text', () => {
    expect(decodeMessage(message(null), origin, HASH)).toMatchObject({ raw: '', problem: 'not JSON' });
  });

  it('names invalid UTF-8 even when the text decodes to JSON, keeping the parsed value to name its customer', () => {
    const value = Buffer.concat([Buffer.from('{"customer":"acme","instance":"shop","q":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
    expect(decodeMessage(message(value), origin, HASH)).toMatchObject({
      value: { customer: 'acme', instance: 'shop' },
      raw: '{"customer":"acme","instance":"shop","q":"\uFFFD\uFFFD"}',
      problem: 'message is not valid UTF-8',
    });
  });

  it('names invalid UTF-8, not "not JSON", when the value is both', () => {
    expect(decodeMessage(message(Buffer.from([0x7b, 0xc3])), origin, HASH)).toMatchObject({ problem: 'message is not valid UTF-8' });
  });
});
