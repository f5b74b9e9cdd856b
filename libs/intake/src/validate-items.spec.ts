import type { IngestRow } from './ingest-writer';
import { personalHash, type ItemOrigin } from '@app/contracts';
import type { IntakeKind } from './intake-kinds';
import { httpItems, intakeAnswer, validateItems, type IntakeItem, type ValidatedBatch } from './validate-items';

type Row = IngestRow & { n: number };

const NOW = 1_700_000_000_000;

/** Accepts items that are numbers, as a row holding the number; rejects the rest with a reason naming the type. */
function validateNumber(item: unknown, origin: ItemOrigin): { ok: true; row: Row } | { ok: false; reason: string } {
  if (typeof item !== 'number') {
    return { ok: false, reason: `not a number: ${typeof item}` };
  }
  return {
    ok: true,
    row: {
      n: item,
      customer: origin.customer ?? '',
      instance: origin.instance ?? '',
      source: origin.source,
      topic: '',
      partition: -1,
      offset: -1,
    },
  };
}

function kindOf(kind: IntakeKind['kind'], validate = validateNumber): IntakeKind<Row> {
  return { kind, validate } as unknown as IntakeKind<Row>;
}

const numbers = kindOf('search-event');
const http = (items: unknown[]) => httpItems('acme', 'shop', items, NOW);
const n = (...values: number[]): unknown[] => values.map((v): unknown => expect.objectContaining({ n: v }));

describe('validateItems', () => {
  it('keeps every valid item as a row with its request index', () => {
    const batch = validateItems(numbers, http([1, 2, 3]));
    expect(batch).toEqual({ rows: n(1, 2, 3), indexes: [0, 1, 2], rejected: [], reasons: [] });
  });

  it('rejects a bad item with its index and reason instead of failing the batch', () => {
    const batch = validateItems(kindOf('document'), http([1, 'x', 3, null]));
    expect(batch.rows).toEqual(n(1, 3));
    expect(batch.indexes).toEqual([0, 2]);
    expect(batch.reasons).toEqual([
      { index: 1, reason: 'not a number: string' },
      { index: 3, reason: 'not a number: object' },
    ]);
  });

  it('keeps each rejected item as a rejected_events row of the authenticated customer and instance, over http', () => {
    const batch = validateItems(kindOf('document'), http([{ id: 'a', customer: 'other' }]));
    expect(batch.rejected).toEqual([
      {
        customer: 'acme',
        instance: 'shop',
        kind: 'document',
        source: 'http',
        topic: '',
        partition: -1,
        offset: -1,
        item_index: 0,
        raw: '{"id":"a","customer":"other"}',
        reason: 'not a number: object',
        received_at: '2023-11-14 22:13:20.000',
      },
    ]);
  });

  it("keeps no shopper's token as sent: sessionId, userToken and authenticatedUserToken as their hash", () => {
    const batch = validateItems(kindOf('interaction'), http([{ objectId: 'p1', userToken: 'ann', sessionId: 's-1', position: 'x' }]));
    expect(JSON.parse(batch.rejected[0].raw)).toEqual({
      objectId: 'p1',
      userToken: `sha256:${personalHash('acme', 'ann')}`,
      sessionId: `sha256:${personalHash('acme', 's-1')}`,
      position: 'x',
    });
  });

  it('keeps an item that JSON cannot represent as raw "undefined"', () => {
    const batch = validateItems(numbers, http([undefined]));
    expect(batch.rejected[0]).toMatchObject({ item_index: 0, raw: 'undefined', reason: 'not a number: undefined' });
  });

  it('validates each item once, in request order', () => {
    const validate = jest.fn(validateNumber);
    validateItems(kindOf('search-event', validate), http([3, 'b', 1]));
    expect(validate.mock.calls.map(([item]) => item)).toEqual([3, 'b', 1]);
  });

  it('returns an empty batch for no items', () => {
    const batch = validateItems(numbers, http([]));
    expect(batch).toEqual({ rows: [], indexes: [], rejected: [], reasons: [] });
  });
});

describe('validateItems on Kafka messages', () => {
  const origin: ItemOrigin = { now: NOW, source: 'kafka', topic: 'search-events', partition: 3, offset: 42, timestamp: '1699999999000' };
  const message = (value: unknown, extra: Partial<IntakeItem> = {}): IntakeItem => ({
    value,
    origin,
    raw: JSON.stringify(value),
    messageHash: '7',
    ...extra,
  });
  const rejectedBase = {
    kind: 'search-event',
    source: 'kafka',
    topic: 'search-events',
    partition: 3,
    offset: 42,
    item_index: -1,
    received_at: '2023-11-14 22:13:20.000',
    message_hash: '7',
  };

  it('gives an accepted row the hash of its message', () => {
    expect(validateItems(numbers, [message(5)]).rows).toEqual([expect.objectContaining({ n: 5, message_hash: '7' })]);
  });

  it('rejects a message that could not be decoded with its problem, its raw text and its offset, without validating it', () => {
    const validate = jest.fn(validateNumber);
    const batch = validateItems(kindOf('search-event', validate), [
      message(undefined, { raw: '{"customer":"acme",', problem: 'not JSON' }),
    ]);
    expect(batch.rejected).toEqual([{ ...rejectedBase, customer: '', instance: '', raw: '{"customer":"acme",', reason: 'not JSON' }]);
    expect(validate).not.toHaveBeenCalled();
  });

  it("hashes the tokens of a rejected Kafka message, also in an Insights message's event", () => {
    const value = { type: 'insights', customer: 'acme', instance: 'shop', event: { authenticatedUserToken: 'bob@example.com', x: 1 } };
    const kept = JSON.parse(validateItems(numbers, [message(value)]).rejected[0].raw) as typeof value;
    expect(kept).toEqual({ ...value, event: { authenticatedUserToken: `sha256:${personalHash('acme', 'bob@example.com')}`, x: 1 } });
  });

  it('keeps the customer and instance a rejected message names when they are well-formed strings', () => {
    const value = { customer: 'acme', instance: 'shop', q: 1 };
    expect(validateItems(numbers, [message(value)]).rejected).toEqual([
      { ...rejectedBase, customer: 'acme', instance: 'shop', raw: JSON.stringify(value), reason: 'not a number: object' },
    ]);
  });

  it('leaves customer and instance empty when they are not strings, hold a lone surrogate or the value is no object', () => {
    for (const value of [
      { customer: 42, instance: { name: 'shop' } },
      { customer: 'ac\ud800me', instance: 'sh\udfffop' },
      null,
      'acme',
      [{ customer: 'acme' }],
    ]) {
      expect(validateItems(numbers, [message(value)]).rejected[0]).toMatchObject({ customer: '', instance: '' });
    }
  });
});

describe('intakeAnswer', () => {
  function batchOf(items: unknown[]): ValidatedBatch<Row> {
    return validateItems(numbers, http(items));
  }

  it('answers every row as accepted and the validation reasons as rejected when the store refused nothing', () => {
    const batch = batchOf([1, 'x', 2]);
    expect(intakeAnswer(batch)).toEqual({ accepted: 2, rejected: [{ index: 1, reason: 'not a number: string' }] });
    expect(intakeAnswer(batch, new Map())).toEqual(intakeAnswer(batch));
  });

  it('takes rows the store refused out of accepted and answers them with their request index, sorted by index', () => {
    const batch = batchOf([1, 'x', 2, 3, false]);
    const refused = new Map([
      [batch.rows[2], 'storage refused the row: value out of range'],
      [batch.rows[0], 'storage refused the row: cannot parse'],
    ]);
    expect(intakeAnswer(batch, refused)).toEqual({
      accepted: 1,
      rejected: [
        { index: 0, reason: 'storage refused the row: cannot parse' },
        { index: 1, reason: 'not a number: string' },
        { index: 3, reason: 'storage refused the row: value out of range' },
        { index: 4, reason: 'not a number: boolean' },
      ],
    });
  });

  it('matches refused rows by identity, so an equal row of another request does not count', () => {
    const batch = batchOf([1, 2]);
    expect(intakeAnswer(batch, new Map([[{ ...batch.rows[0] }, 'refused']]))).toEqual({ accepted: 2, rejected: [] });
  });

  it('answers accepted 0 when the store refused every row', () => {
    const batch = batchOf([1, 2]);
    const refused = new Map(batch.rows.map((row) => [row, 'refused'] as const));
    expect(intakeAnswer(batch, refused)).toEqual({
      accepted: 0,
      rejected: [
        { index: 0, reason: 'refused' },
        { index: 1, reason: 'refused' },
      ],
    });
  });
});

describe('items of several rows (an Insights event with several objects)', () => {
  /** An array of numbers is one item of one row per number. */
  const several = kindOf('interaction', (item, origin) => {
    if (!Array.isArray(item) || item.length === 0) {
      return { ok: false, reason: 'not a list' };
    }
    const rows = item.map((v: number) => (validateNumber(v, origin) as { ok: true; row: Row }).row);
    return { ok: true, row: rows[0], more: rows.slice(1) } as unknown as { ok: true; row: Row };
  });

  it('keeps the rows of an item together under its one index and counts it once; a refused row rejects its item', () => {
    const batch = validateItems(several, http([[1, 2, 3], 'x', [4]]));
    expect(batch.rows).toEqual(n(1, 2, 3, 4));
    expect(batch.indexes).toEqual([0, 0, 0, 2]);
    expect(intakeAnswer(batch)).toEqual({ accepted: 2, rejected: [{ index: 1, reason: 'not a list' }] });
    const refused = new Map([
      [batch.rows[1], 'storage refused the row'],
      [batch.rows[2], 'storage refused the row'],
    ]);
    expect(intakeAnswer(batch, refused)).toEqual({
      accepted: 1,
      rejected: [
        { index: 0, reason: 'storage refused the row' },
        { index: 1, reason: 'not a list' },
      ],
    });
  });

  it('gives every row of a Kafka item its message hash', () => {
    const item: IntakeItem = { value: [5, 6], origin: { now: NOW, source: 'kafka' }, messageHash: '77' };
    expect(validateItems(several, [item]).rows.map((r) => r.message_hash)).toEqual(['77', '77']);
  });
});
