import { intakeAnswer, validateItems, type ValidatedBatch } from './validate-items';

interface Row {
  n: number;
}

const NOW = 1_700_000_000_000;

/** Accepts items that are numbers, as a row holding the number; rejects the rest with a reason naming the type. */
function validateNumber(item: unknown): { ok: true; row: Row } | { ok: false; reason: string } {
  return typeof item === 'number' ? { ok: true, row: { n: item } } : { ok: false, reason: `not a number: ${typeof item}` };
}

describe('validateItems', () => {
  it('keeps every valid item as a row with its request index', () => {
    const batch = validateItems('acme', 'shop', 'search-event', [1, 2, 3], NOW, validateNumber);
    expect(batch).toEqual({ rows: [{ n: 1 }, { n: 2 }, { n: 3 }], indexes: [0, 1, 2], rejected: [], reasons: [] });
  });

  it('rejects a bad item with its index and reason instead of failing the batch', () => {
    const batch = validateItems('acme', 'shop', 'document', [1, 'x', 3, null], NOW, validateNumber);
    expect(batch.rows).toEqual([{ n: 1 }, { n: 3 }]);
    expect(batch.indexes).toEqual([0, 2]);
    expect(batch.reasons).toEqual([
      { index: 1, reason: 'not a number: string' },
      { index: 3, reason: 'not a number: object' },
    ]);
  });

  it('keeps each rejected item as a rejected_events row of the authenticated customer and instance, over http', () => {
    const batch = validateItems('acme', 'shop', 'document', [{ id: 'a', customer: 'other' }], NOW, validateNumber);
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

  it('keeps an item that JSON cannot represent as raw "undefined"', () => {
    const batch = validateItems('acme', 'shop', 'search-event', [undefined], NOW, validateNumber);
    expect(batch.rejected[0]).toMatchObject({ item_index: 0, raw: 'undefined', reason: 'not a number: undefined' });
  });

  it('validates each item once, in request order', () => {
    const validate = jest.fn(validateNumber);
    validateItems('acme', 'shop', 'search-event', [3, 'b', 1], NOW, validate);
    expect(validate.mock.calls.map(([item]) => item)).toEqual([3, 'b', 1]);
  });

  it('returns an empty batch for no items', () => {
    const batch = validateItems('acme', 'shop', 'search-event', [], NOW, validateNumber);
    expect(batch).toEqual({ rows: [], indexes: [], rejected: [], reasons: [] });
  });
});

describe('intakeAnswer', () => {
  function batchOf(items: unknown[]): ValidatedBatch<Row> {
    return validateItems('acme', 'shop', 'search-event', items, NOW, validateNumber);
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
    expect(intakeAnswer(batch, new Map([[{ n: 1 }, 'refused']]))).toEqual({ accepted: 2, rejected: [] });
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
