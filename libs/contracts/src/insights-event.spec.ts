import { BotDetector } from './bot-detector';
import { personalHash } from './event-fields';
import { insightsRowId, validateInsightsEvent, type InsightsRow } from './insights-event';
import { validateInsightsMessage } from './insights-message';
import { NO_SEARCH_ID } from './interaction-event';
import type { ValidationContext } from './search-event';

const NOW = Date.parse('2026-11-21T12:00:00.000Z');
const rules = { retentionDays: 400, bots: new BotDetector() };
const ctx: ValidationContext = { ...rules, now: NOW, source: 'http', customer: 'demo', instance: 'live' };
const QUERY = '0190c7a45e4f7b6a9c3d2f1e0d9c8b7a';
const SEARCH = '0190c7a4-5e4f-7b6a-9c3d-2f1e0d9c8b7a';
const OTHER = 'ffffffffffffffffffffffffffffffff';
const base = { eventName: 'Product Clicked', index: 'products', userToken: 'anon-1' };
const click = { ...base, eventType: 'click', queryID: QUERY, objectIDs: ['a', 'b'], positions: [1, 7] };
const conversion = { ...base, eventType: 'conversion', eventName: 'Bought', queryID: QUERY, objectIDs: ['a'] };

function rows(input: unknown): InsightsRow[] {
  const r = validateInsightsEvent(input, ctx, rules);
  if (!r.ok) {
    throw new Error(r.reason);
  }
  return r.rows;
}

const reason = (input: unknown) => {
  const r = validateInsightsEvent(input, ctx, rules);
  return r.ok ? 'accepted' : r.reason;
};

describe('validateInsightsEvent', () => {
  it('counts an object id in characters (code points), as a native objectId: 200 emoji fit', () => {
    expect(rows({ ...conversion, objectIDs: ['👟'.repeat(200)] })[0].object_id).toBe('👟'.repeat(200));
  });

  it('makes one click row per object id, with its position and the canonical search id', () => {
    const [a, b] = rows(click);
    expect(a).toEqual({
      interaction_id: a.interaction_id,
      customer: 'demo',
      instance: 'live',
      ts: '2026-11-21 12:00:00.000',
      type: 'click',
      search_id: SEARCH,
      object_id: 'a',
      object_index: 0,
      position: 1,
      subtype: '',
      value: 0,
      currency: '',
      session_hash: '',
      user_token_hash: personalHash('demo', 'anon-1'),
      source: 'http',
      topic: '',
      partition: -1,
      offset: -1,
      received_at: '2026-11-21 12:00:00.000',
      origin: 'insights',
      event_name: 'Product Clicked',
      index_name: 'products',
      filters: [],
    });
    expect(b).toMatchObject({ object_id: 'b', object_index: 1, position: 7, search_id: SEARCH });
    expect(b.interaction_id).not.toBe(a.interaction_id);
  });

  it('takes the timestamp (epoch ms) and hashes both user tokens: the authenticated one as the user token', () => {
    const [r] = rows({ ...click, objectIDs: ['a'], positions: [1], timestamp: NOW - 1500, authenticatedUserToken: 'user-9' });
    expect(r).toMatchObject({
      ts: '2026-11-21 11:59:58.500',
      user_token_hash: personalHash('demo', 'user-9'),
      session_hash: personalHash('demo', 'anon-1'),
    });
    expect(JSON.stringify(r)).not.toContain('user-9');
    const [anonymous] = rows({ ...click, userToken: undefined, objectIDs: ['a'], positions: [1] });
    expect(anonymous).toMatchObject({ user_token_hash: '', session_hash: '' });
  });

  it('counts a conversion value once per event: on the first object only', () => {
    const r = rows({ ...conversion, objectIDs: ['a', 'b'], eventSubtype: 'purchase', value: 30, currency: 'eur' });
    expect(r.map((x) => [x.type, x.object_id, x.value, x.currency, x.subtype, x.position])).toEqual([
      ['conversion', 'a', 30, 'EUR', 'purchase', 0],
      ['conversion', 'b', 0, 'EUR', 'purchase', 0],
    ]);
  });

  it('takes value and prices as numbers or numeric strings; without value, sums price x quantity - discount', () => {
    expect(rows({ ...conversion, value: '59.90', currency: 'EUR' })[0].value).toBe(59.9);
    const r = rows({
      ...conversion,
      objectIDs: ['a', 'b'],
      currency: 'USD',
      objectData: [{ price: '10.5', quantity: 2, discount: '1' }, { price: 4 }],
    });
    expect(r.map((x) => x.value)).toEqual([24, 0]);
    // `value` wins over the objects' prices.
    expect(rows({ ...conversion, value: 5, currency: 'USD', objectData: [{ price: 100 }] })[0].value).toBe(5);
    expect(rows(conversion)[0]).toMatchObject({ value: 0, currency: '' });
  });

  it("lets an object's queryID win over the event's, and stores events without queryID as unattributed", () => {
    const r = rows({ ...conversion, objectIDs: ['a', 'b'], objectData: [{ queryID: OTHER }, {}] });
    expect(r.map((x) => x.search_id)).toEqual(['ffffffff-ffff-ffff-ffff-ffffffffffff', SEARCH]);
    const clickedObjectIDs = { ...click, queryID: undefined, positions: undefined };
    expect(rows(clickedObjectIDs).map((x) => [x.search_id, x.position])).toEqual([
      [NO_SEARCH_ID, 0],
      [NO_SEARCH_ID, 0],
    ]);
    const convertedObjectIDs = { ...conversion, queryID: undefined };
    expect(rows(convertedObjectIDs)[0].search_id).toBe(NO_SEARCH_ID);
  });

  it('stores views and filter-only events (one row, no object, the filters URI-decoded)', () => {
    expect(rows({ ...base, eventType: 'view', objectIDs: ['a'] })[0]).toMatchObject({
      type: 'view',
      object_id: 'a',
      search_id: NO_SEARCH_ID,
    });
    const [f] = rows({ ...base, eventType: 'click', filters: ['brand%3AApple', 'color:red'] });
    expect(f).toMatchObject({ type: 'click', object_id: '', object_index: 0, position: 0, filters: ['brand:Apple', 'color:red'] });
    expect(rows({ ...base, eventType: 'conversion', filters: ['%E0%A4%A'] })[0].filters).toEqual(['%E0%A4%A']);
  });

  it('ignores unknown fields (search-insights adds objectIDsWithInferredQueryID)', () => {
    expect(rows({ ...conversion, objectIDsWithInferredQueryID: ['a'], somethingNew: { x: 1 } })).toHaveLength(1);
  });

  it('takes a queryID written with dashes, in any case, as the same search (ids are one id either way)', () => {
    for (const queryID of [SEARCH, SEARCH.toUpperCase(), SEARCH.replaceAll('-', '')]) {
      expect(rows({ ...click, queryID })[0]).toMatchObject({ search_id: SEARCH });
    }
  });

  // The bad input, each rejected naming its field.
  it.each<[string, Record<string, unknown>, string]>([
    ['an unknown eventType', { ...click, eventType: 'purchase' }, 'eventType must be click, conversion or view'],
    ['no eventType', { ...click, eventType: undefined }, 'eventType must be click, conversion or view'],
    ['a malformed queryID', { ...click, queryID: 'abc' }, 'queryID must be a UUID (with or without dashes)'],
    ['the nil UUID as queryID', { ...click, queryID: '0'.repeat(32) }, 'queryID must not be the nil UUID (it names no search)'],
    [
      'a malformed objectData queryID',
      { ...conversion, objectData: [{ queryID: 'x' }] },
      'objectData[0].queryID must be a UUID (with or without dashes)',
    ],
    ['positions of another length', { ...click, positions: [1] }, 'positions must be an array of the same length as objectIDs'],
    ['a position < 1', { ...click, positions: [1, 0] }, 'positions[1] must be an integer from 1 to 65535'],
    ['a position that is no integer', { ...click, positions: [1.5, 2] }, 'positions[0] must be an integer from 1 to 65535'],
    [
      'a click with queryID and no positions',
      { ...click, positions: undefined },
      'positions is required for a click with queryID (or objectData[i].queryID)',
    ],
    [
      'a click without positions whose objectData names a search (it would count at position 0)',
      { ...click, queryID: undefined, positions: undefined, objectData: [{ queryID: QUERY }, {}] },
      'positions is required for a click with queryID (or objectData[i].queryID)',
    ],
    [
      'an object id of 201 characters',
      { ...conversion, objectIDs: ['x'.repeat(201)] },
      'objectIDs must be a string of 1 to 200 characters',
    ],
    ['positions on a conversion', { ...conversion, positions: [1] }, 'positions is only for clicks'],
    [
      'a negative value',
      { ...conversion, value: -1, currency: 'EUR' },
      'value must be a number >= 0 and below 1e12 (or such a number as a string)',
    ],
    [
      'a value that is no number',
      { ...conversion, value: '12abc', currency: 'EUR' },
      'value must be a number >= 0 and below 1e12 (or such a number as a string)',
    ],
    [
      'a negative price',
      { ...conversion, currency: 'EUR', objectData: [{ price: -2 }] },
      'objectData[0].price must be a number >= 0 and below 1e12 (or such a number as a string)',
    ],
    [
      'a discount beyond the price',
      { ...conversion, currency: 'EUR', objectData: [{ price: 2, discount: 3 }] },
      'value from objectData (price x quantity - discount) must be >= 0 and below 1e12',
    ],
    ['a bad quantity', { ...conversion, objectData: [{ quantity: 0 }] }, 'objectData[0].quantity must be an integer from 1 to 1000000'],
    [
      'objectData of another length',
      { ...conversion, objectData: [{}, {}] },
      'objectData must be an array of the same length as objectIDs',
    ],
    [
      'a currency that is not three letters',
      { ...conversion, value: 1, currency: 'EURO' },
      'currency must be three letters (ISO 4217, e.g. EUR)',
    ],
    [
      'a value without currency',
      { ...conversion, value: 1 },
      'currency is required with value or objectData prices (three letters, e.g. EUR)',
    ],
    [
      'more than 20 objectIDs',
      { ...conversion, objectIDs: Array.from({ length: 21 }, (_, i) => `o${i}`) },
      'objectIDs must be an array of 1 to 20 object ids',
    ],
    ['no objectIDs', { ...conversion, objectIDs: [] }, 'objectIDs must be an array of 1 to 20 object ids'],
    ['an empty object id', { ...conversion, objectIDs: [''] }, 'objectIDs must be a string of 1 to 200 characters'],
    ['neither objects nor filters', { ...base, eventType: 'view' }, 'objectIDs or filters is required'],
    ['objects and filters', { ...conversion, filters: ['a:b'] }, 'objectIDs and filters cannot both be given'],
    [
      '11 filters',
      { ...base, eventType: 'view', filters: Array.from({ length: 11 }, () => 'a:b') },
      'filters must be an array of 1 to 10 strings of 1 to 512 characters',
    ],
    ['a timestamp in the future', { ...click, timestamp: NOW + 3_600_000 }, 'timestamp is more than 5 minutes in the future'],
    [
      'a timestamp beyond the retention',
      { ...click, timestamp: NOW - 401 * 86_400_000 },
      'timestamp is older than the retention of 400 days',
    ],
    [
      'a timestamp as a string',
      { ...click, timestamp: '2026-11-21T12:00:00Z' },
      'timestamp must be epoch milliseconds (a positive integer)',
    ],
    ['no eventName', { ...click, eventName: undefined }, 'eventName must be a string of 1 to 64 characters'],
    ['no index', { ...click, index: '' }, 'index must be a string of 1 to 256 characters'],
    ['a subtype on a click', { ...click, eventSubtype: 'purchase' }, 'eventSubtype is only for conversions'],
    ['an unknown subtype', { ...conversion, eventSubtype: 'refund' }, 'eventSubtype must be addToCart or purchase'],
    ['a userToken that is no string', { ...click, userToken: 42 }, 'userToken must be a string of 1 to 200 characters'],
    [
      'a long authenticatedUserToken',
      { ...click, authenticatedUserToken: 'u'.repeat(201) },
      'authenticatedUserToken must be a string of 1 to 200 characters',
    ],
    [
      'a lone surrogate in an object id',
      { ...conversion, objectIDs: ['\ud800'] },
      'objectIDs is not well-formed Unicode (a lone surrogate)',
    ],
  ])('rejects %s', (_, event, expected) => {
    expect(reason(event)).toBe(expected);
  });

  it.each([null, [], 'click', 3])('rejects %p: not an object', (event) => {
    expect(reason(event)).toBe('event must be a JSON object');
  });
});

describe('validateInsightsMessage (an Insights event on the search events topic)', () => {
  const ID = '0190c7a4-5e4f-7b6a-9c3d-2f1e0d9c8b70';
  const kafka = { now: NOW + 60_000, source: 'kafka' as const, topic: 't', partition: 2, offset: 41, timestamp: String(NOW + 30_000) };
  const message = (fields: Record<string, unknown> = {}) => ({
    type: 'insights',
    customer: 'demo',
    instance: 'live',
    id: ID,
    receivedAt: NOW,
    event: click,
    ...fields,
  });

  it('gives the rows POST /1/events stores for the event, with the offset, the message id and receivedAt as receive time', () => {
    const fromHttp = validateInsightsEvent(click, ctx, rules, ID);
    const fromKafka = validateInsightsMessage(message(), kafka, rules);
    if (!fromHttp.ok || !fromKafka.ok) {
      throw new Error('rejected');
    }
    expect(fromKafka.rows).toEqual(fromHttp.rows.map((row) => ({ ...row, source: 'kafka', topic: 't', partition: 2, offset: 41 })));
    expect(fromKafka.rows.map((r) => r.interaction_id)).toEqual([ID, insightsRowId(ID, 1)]);
    // The same on every delivery, whenever it is read.
    expect(validateInsightsMessage(message(), { ...kafka, now: NOW + 3_600_000 }, rules)).toEqual(fromKafka);
  });

  it('takes the Kafka timestamp as receive time without receivedAt, and draws an id without id', () => {
    const r = validateInsightsMessage(
      message({ receivedAt: undefined, id: undefined, event: { ...click, objectIDs: ['a'], positions: [1] } }),
      kafka,
      rules,
    );
    expect(r).toMatchObject({ ok: true, rows: [{ ts: '2026-11-21 12:00:30.000', received_at: '2026-11-21 12:00:30.000' }] });
  });

  it('derives distinct UUIDs for the other objects, the same for the same event id', () => {
    const ids = [1, 2, 19].map((i) => insightsRowId(ID, i));
    expect(new Set([ID, ...ids]).size).toBe(4);
    expect(ids.every((id) => /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(id))).toBe(true);
    expect(insightsRowId(ID, 1)).toBe(ids[0]);
  });

  it('rejects a wrong envelope naming the field, and a wrong event with its reason', () => {
    const reasonOf = (m: unknown) => {
      const r = validateInsightsMessage(m, kafka, rules);
      return r.ok ? 'accepted' : r.reason;
    };
    expect(reasonOf(message({ extra: 1 }))).toBe('unknown field extra');
    expect(reasonOf(message({ customer: undefined }))).toBe('customer is required (a lower-case name)');
    expect(reasonOf(message({ id: 'x' }))).toBe('id must be a UUID (with or without dashes)');
    expect(reasonOf(message({ receivedAt: '1' }))).toBe('receivedAt must be epoch milliseconds (a positive integer)');
    expect(reasonOf(message({ receivedAt: NOW + 3_600_000 }))).toBe('receivedAt is more than 5 minutes in the future');
    expect(reasonOf(message({ event: undefined }))).toBe('event is required (the Insights event)');
    expect(reasonOf(message({ event: { ...click, positions: [0, 1] } }))).toBe('event: positions[0] must be an integer from 1 to 65535');
    // The event is checked against its receive time, as the query app did.
    expect(reasonOf(message({ event: { ...click, timestamp: NOW + 4 * 60_000 } }))).toBe('accepted');
    expect(reasonOf(message({ event: { ...click, timestamp: NOW + 6 * 60_000 } }))).toBe(
      'event: timestamp is more than 5 minutes in the future',
    );
  });
});
