import { BotDetector } from './bot-detector';
import { validateInteraction, NO_SEARCH_ID, MAX_OBJECT_ID_LENGTH, MAX_POSITION, type InteractionRow } from './interaction-event';
import type { ValidationContext } from './search-event';

const NOW = Date.parse('2026-11-21T12:00:00.000Z');
const rules = { retentionDays: 400, bots: new BotDetector() };
const http: ValidationContext = { ...rules, now: NOW, source: 'http', customer: 'demo', instance: 'live' };
const kafka: ValidationContext = { ...rules, now: NOW, source: 'kafka', topic: 't', partition: 2, offset: 41 };
const SEARCH = '0190c7a4-5e4f-7b6a-9c3d-2f1e0d9c8b7a';
const click = { type: 'click', searchId: SEARCH, objectId: 'sku-1', position: 3 };
const conversion = { type: 'conversion', searchId: SEARCH, objectId: 'sku-1' };
const ID_REASON = (field: string) => `${field} must be a UUID (with or without dashes)`;

function row(input: unknown, ctx: ValidationContext = http): InteractionRow {
  const r = validateInteraction(input, ctx, ctx);
  if (!r.ok) {
    throw new Error(r.reason);
  }
  return r.row;
}

const reason = (input: unknown, ctx: ValidationContext = http) => {
  const r = validateInteraction(input, ctx, ctx);
  return r.ok ? 'accepted' : r.reason;
};

describe('validateInteraction', () => {
  it('stores a click with its search, object and position, the receive time and empty conversion columns', () => {
    const r = row(click);
    expect(r).toEqual({
      interaction_id: r.interaction_id,
      customer: 'demo',
      instance: 'live',
      ts: '2026-11-21 12:00:00.000',
      type: 'click',
      search_id: SEARCH,
      object_id: 'sku-1',
      position: 3,
      subtype: '',
      value: 0,
      currency: '',
      session_hash: '',
      user_token_hash: '',
      source: 'http',
      topic: '',
      partition: -1,
      offset: -1,
      received_at: '2026-11-21 12:00:00.000',
    });
    expect(r.interaction_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(row(click).interaction_id).not.toBe(r.interaction_id);
  });

  it('stores a conversion with subtype, value and currency, and position 0', () => {
    expect(row({ ...conversion, subtype: 'purchase', value: 59.9, currency: 'EUR', ts: NOW - 1000 })).toMatchObject({
      type: 'conversion',
      search_id: SEARCH,
      object_id: 'sku-1',
      position: 0,
      subtype: 'purchase',
      value: 59.9,
      currency: 'EUR',
      ts: '2026-11-21 11:59:59.000',
    });
    expect(row({ ...conversion, subtype: 'addToCart' })).toMatchObject({ subtype: 'addToCart', value: 0, currency: '' });
  });

  it('accepts a conversion without searchId (stored unattributed, search_id the nil UUID) but never a click without one', () => {
    const unattributed: Record<string, unknown> = { ...conversion };
    delete unattributed.searchId;
    expect(Object.keys(unattributed)).not.toContain('searchId');
    expect(row(unattributed)).toMatchObject({ type: 'conversion', search_id: NO_SEARCH_ID });
    const orphan: Record<string, unknown> = { ...click };
    delete orphan.searchId;
    expect(reason(orphan)).toBe('searchId is required for a click (the id of the search)');
  });

  it.each([[SEARCH], [SEARCH.toUpperCase()], [SEARCH.replaceAll('-', '')], [SEARCH.replaceAll('-', '').toUpperCase()]])(
    'stores the search id %p and an id written the same way in their canonical form',
    (id) => {
      expect(row({ ...click, searchId: id, id })).toMatchObject({ search_id: SEARCH, interaction_id: SEARCH });
      expect(row({ ...conversion, searchId: id, id })).toMatchObject({ search_id: SEARCH, interaction_id: SEARCH });
    },
  );

  it('rejects the nil UUID as searchId: it names no search (a conversion without one leaves searchId out)', () => {
    for (const searchId of ['00000000-0000-0000-0000-000000000000', '0'.repeat(32)]) {
      expect(reason({ ...click, searchId })).toBe('searchId must not be the nil UUID (it names no search)');
      expect(reason({ ...conversion, searchId })).toBe('searchId must not be the nil UUID (it names no search)');
    }
  });

  it.each([['abc'], [''], [SEARCH.slice(1)], [`${SEARCH.replaceAll('-', '')}0`], [`{${SEARCH}}`], [7], [null], [true]])(
    'rejects the malformed id %p, as searchId of a click or a conversion and as id',
    (id) => {
      expect(reason({ ...click, searchId: id })).toBe(ID_REASON('searchId'));
      expect(reason({ ...conversion, searchId: id })).toBe(ID_REASON('searchId'));
      expect(reason({ ...click, id })).toBe(ID_REASON('id'));
      expect(reason({ ...conversion, id })).toBe(ID_REASON('id'));
    },
  );

  it('keeps the session id and the user token only as hashes, per customer, apart from each other', () => {
    const r = row({ ...click, sessionId: 'sess-1', userToken: 'user-42' });
    expect(r.session_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(r.user_token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(r.user_token_hash).not.toBe(r.session_hash);
    expect(JSON.stringify(r)).not.toContain('sess-1');
    expect(JSON.stringify(r)).not.toContain('user-42');
    // The same token hashes alike on clicks and conversions, and like a session id of that value (one rule).
    expect(row({ ...conversion, userToken: 'user-42' }).user_token_hash).toBe(r.user_token_hash);
    expect(row({ ...click, sessionId: 'user-42' }).session_hash).toBe(r.user_token_hash);
    const other = row({ ...click, userToken: 'user-42', customer: 'shop2' }, { ...http, customer: 'shop2' });
    expect(other.user_token_hash).not.toBe(r.user_token_hash);
  });

  it('requires customer and instance on Kafka and keeps topic, partition and offset', () => {
    expect(reason(click, kafka)).toBe('customer is required (a lower-case name)');
    expect(reason({ ...click, customer: 'shop1' }, kafka)).toBe('instance is required (a lower-case name)');
    expect(row({ ...conversion, customer: 'shop1', instance: 'live' }, kafka)).toMatchObject({
      customer: 'shop1',
      instance: 'live',
      source: 'kafka',
      topic: 't',
      partition: 2,
      offset: 41,
    });
  });

  it.each([
    [null, 'event must be a JSON object'],
    [[click], 'event must be a JSON object'],
    ['click', 'event must be a JSON object'],
    [{ ...click, type: undefined }, 'type must be click or conversion'],
    [{ ...click, type: 'search' }, 'type must be click or conversion'],
    [{ ...click, type: 'view' }, 'type must be click or conversion'],
    [{ ...click, type: 'Click' }, 'type must be click or conversion'],
    [{ ...click, customer: 'other' }, 'customer does not match the authenticated customer'],
    [{ ...click, instance: 'stage' }, 'instance does not match the authenticated instance'],
    [{ ...click, objectID: 'x' }, 'unknown field objectID'],
    [{ ...conversion, queryID: SEARCH }, 'unknown field queryID'],
    [{ ...click, phrase: 'x' }, 'unknown field phrase'],
    [{ ...click, ['x'.repeat(300)]: 1 }, `unknown field ${'x'.repeat(100)}...`],
    [{ ...click, value: 1 }, 'value is not a field of a click'],
    [{ ...click, currency: 'EUR' }, 'currency is not a field of a click'],
    [{ ...click, subtype: 'purchase' }, 'subtype is not a field of a click'],
    [{ ...conversion, position: 1 }, 'position is not a field of a conversion'],
  ])('rejects %p with %p', (input, expected) => {
    expect(reason(input)).toBe(expected);
  });

  describe('objectId', () => {
    const TOO_LONG = `objectId must be a string of 1 to ${MAX_OBJECT_ID_LENGTH} characters`;
    it.each([[undefined], [''], [7], [null], [['sku-1']], ['x'.repeat(MAX_OBJECT_ID_LENGTH + 1)], ['😀'.repeat(MAX_OBJECT_ID_LENGTH + 1)]])(
      'rejects %p on clicks and conversions',
      (objectId) => {
        expect(reason({ ...click, objectId })).toBe(TOO_LONG);
        expect(reason({ ...conversion, objectId })).toBe(TOO_LONG);
      },
    );

    it('accepts 1 and 200 characters, counted as code points, stored as sent', () => {
      expect(row({ ...click, objectId: 'x' }).object_id).toBe('x');
      expect(row({ ...click, objectId: 'x'.repeat(MAX_OBJECT_ID_LENGTH) }).object_id).toHaveLength(MAX_OBJECT_ID_LENGTH);
      expect(row({ ...conversion, objectId: '😀'.repeat(MAX_OBJECT_ID_LENGTH) }).object_id).toHaveLength(2 * MAX_OBJECT_ID_LENGTH);
      expect(row({ ...click, objectId: ' SKU 1 ' }).object_id).toBe(' SKU 1 ');
    });

    it.each([
      ['\ud83d', 'objectId is not well-formed Unicode (a lone surrogate)'],
      ['a\u0000b', 'objectId contains a NUL character'],
    ])('rejects the text %p the store would refuse', (objectId, expected) => {
      expect(reason({ ...click, objectId })).toBe(expected);
    });
  });

  describe('position', () => {
    const WRONG = `position must be an integer from 1 to ${MAX_POSITION}`;
    it.each([[undefined], [0], [-1], [1.5], ['3'], [null], [NaN], [Infinity], [MAX_POSITION + 1]])('rejects %p', (position) => {
      expect(reason({ ...click, position })).toBe(WRONG);
    });

    it('accepts 1 (the first result) and the largest position', () => {
      expect(row({ ...click, position: 1 }).position).toBe(1);
      expect(row({ ...click, position: MAX_POSITION }).position).toBe(MAX_POSITION);
    });
  });

  describe('subtype, value and currency', () => {
    it.each([['checkout'], ['Purchase'], ['addtocart'], [''], [1], [null]])('rejects the subtype %p', (subtype) => {
      expect(reason({ ...conversion, subtype })).toBe('subtype must be addToCart or purchase');
    });

    it.each([[-0.01], [-1], ['12.5'], [NaN], [Infinity], [1e12], [null], [true]])('rejects the value %p', (value) => {
      expect(reason({ ...conversion, value, currency: 'EUR' })).toBe('value must be a number >= 0 and below 1e12');
    });

    it('accepts 0 and the largest value, rounded to 6 decimals', () => {
      expect(row({ ...conversion, value: 0, currency: 'EUR' }).value).toBe(0);
      expect(row({ ...conversion, value: -0, currency: 'EUR' }).value).toBe(0);
      expect(row({ ...conversion, value: 999_999_999_999.99, currency: 'EUR' }).value).toBe(999_999_999_999.99);
      expect(row({ ...conversion, value: 1.23456789, currency: 'EUR' }).value).toBe(1.234568);
      expect(row({ ...conversion, value: 0.1 + 0.2, currency: 'EUR' }).value).toBe(0.3);
      expect(row({ ...conversion, value: 0.0000004, currency: 'EUR' }).value).toBe(0);
    });

    it('requires currency with value', () => {
      expect(reason({ ...conversion, value: 10 })).toBe('currency is required with value (three letters, e.g. EUR)');
      expect(reason({ ...conversion, value: 0 })).toBe('currency is required with value (three letters, e.g. EUR)');
    });

    it.each([['EU'], ['EURO'], ['E1R'], [''], ['€'], ['ÄÖÜ'], [978], [null]])('rejects the currency %p', (currency) => {
      expect(reason({ ...conversion, value: 1, currency })).toBe('currency must be three letters (ISO 4217, e.g. EUR)');
    });

    it('upper-cases a currency written in lower case, and keeps a currency sent without value', () => {
      expect(row({ ...conversion, value: 5, currency: 'eur' }).currency).toBe('EUR');
      expect(row({ ...conversion, value: 5, currency: 'cHf' }).currency).toBe('CHF');
      expect(row({ ...conversion, currency: 'USD' })).toMatchObject({ value: 0, currency: 'USD' });
    });
  });

  describe('sessionId and userToken', () => {
    it.each([
      [{ sessionId: 7 }, 'sessionId must be a string of at most 200 characters'],
      [{ sessionId: 'x'.repeat(201) }, 'sessionId must be a string of at most 200 characters'],
      [{ sessionId: 'a\u0000' }, 'sessionId contains a NUL character'],
      [{ userToken: 7 }, 'userToken must be a string of 1 to 200 characters'],
      [{ userToken: '' }, 'userToken must be a string of 1 to 200 characters'],
      [{ userToken: 'x'.repeat(201) }, 'userToken must be a string of 1 to 200 characters'],
      [{ userToken: null }, 'userToken must be a string of 1 to 200 characters'],
      [{ userToken: 'u\ud800' }, 'userToken is not well-formed Unicode (a lone surrogate)'],
    ])('rejects %p on clicks and conversions', (fields, expected) => {
      expect(reason({ ...click, ...fields })).toBe(expected);
      expect(reason({ ...conversion, ...fields })).toBe(expected);
    });

    it('accepts 200 characters', () => {
      expect(reason({ ...click, sessionId: 'x'.repeat(200), userToken: 'y'.repeat(200) })).toBe('accepted');
    });
  });

  describe('ts', () => {
    it.each([
      [NOW + 60 * 60 * 1000, 'ts is more than 5 minutes in the future'],
      ['2020-01-01T00:00:00Z', 'ts is older than the retention of 400 days'],
      ['yesterday', 'ts must be an ISO-8601 string or epoch milliseconds'],
      ['2026-11-21T11:00:00', 'ts must be an ISO-8601 string or epoch milliseconds'],
      [0, 'ts must be an ISO-8601 string or epoch milliseconds'],
      [NOW + 0.5, 'ts must be an ISO-8601 string or epoch milliseconds'],
      [null, 'ts must be an ISO-8601 string or epoch milliseconds'],
    ])('rejects %p on clicks and conversions', (ts, expected) => {
      expect(reason({ ...click, ts })).toBe(expected);
      expect(reason({ ...conversion, ts })).toBe(expected);
    });

    it('accepts ISO-8601 with an offset, epoch milliseconds, 5 minutes ahead and the oldest day of the retention', () => {
      expect(row({ ...click, ts: '2026-11-21T12:30:00.250+01:00' }).ts).toBe('2026-11-21 11:30:00.250');
      expect(row({ ...conversion, ts: NOW + 5 * 60 * 1000 }).ts).toBe('2026-11-21 12:05:00.000');
      expect(row({ ...click, ts: NOW - 400 * 86_400_000 }).ts).toBe('2025-10-17 12:00:00.000');
      expect(reason({ ...click, ts: NOW + 5 * 60 * 1000 + 1 })).toBe('ts is more than 5 minutes in the future');
      expect(reason({ ...click, ts: NOW - 400 * 86_400_000 - 1 })).toBe('ts is older than the retention of 400 days');
    });
  });
});
