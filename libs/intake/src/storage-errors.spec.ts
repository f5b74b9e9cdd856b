import { ClickHouseError, parseError } from '@clickhouse/client';
import { isDataError, storageReason } from './storage-errors';

const chError = (type: string) => new ClickHouseError({ message: 'boom', code: '1', type });

describe('isDataError', () => {
  it.each([
    'CANNOT_PARSE_TEXT',
    'CANNOT_PARSE_DATETIME',
    'CANNOT_PARSE_INPUT_ASSERTION_FAILED',
    'CANNOT_PARSE_UUID',
    'INCORRECT_DATA',
    'TYPE_MISMATCH',
    'CANNOT_CONVERT_TYPE',
    'TOO_LARGE_STRING_SIZE',
    'VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE',
    'CANNOT_INSERT_NULL_IN_ORDINARY_COLUMN',
    'DECIMAL_OVERFLOW',
    'ARGUMENT_OUT_OF_BOUND',
    'UNICODE_ERROR',
  ])('treats %s as a problem of the rows (they are refused, not retried)', (type) => {
    expect(isDataError(chError(type))).toBe(true);
  });

  it.each(['TIMEOUT_EXCEEDED', 'MEMORY_LIMIT_EXCEEDED', 'TOO_MANY_PARTS', 'UNKNOWN_TABLE', 'NO_SUCH_COLUMN_IN_TABLE', 'READONLY'])(
    'treats %s as a problem of the store (retried)',
    (type) => {
      expect(isDataError(chError(type))).toBe(false);
    },
  );

  it('classifies an error the ClickHouse client parsed from a server message by its type', () => {
    const parse = parseError(
      "Code: 27. DB::Exception: Cannot parse input: expected '\"' before: 'x'\n. (CANNOT_PARSE_INPUT_ASSERTION_FAILED) (version 24.8.1)",
    );
    const memory = parseError(
      'Code: 241. DB::Exception: Memory limit (total) exceeded: would use 3.5 GiB. (MEMORY_LIMIT_EXCEEDED) (version 24.8.1)',
    );
    expect(isDataError(parse)).toBe(true);
    expect(isDataError(memory)).toBe(false);
  });

  it('treats errors without a string type as store problems: connection errors, plain values, nothing', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8123'), { code: 'ECONNREFUSED' });
    for (const err of [refused, new Error('CANNOT_PARSE_TEXT'), { type: 27 }, { type: null }, 'CANNOT_PARSE_TEXT', null, undefined, 0]) {
      expect(isDataError(err)).toBe(false);
    }
  });
});

describe('storageReason', () => {
  it('prefixes the first line of the message', () => {
    const err = new Error('Code: 27. DB::Exception: Cannot parse input\nstack line 1\nstack line 2');
    expect(storageReason(err)).toBe('storage refused the row: Code: 27. DB::Exception: Cannot parse input');
  });

  it('keeps at most 300 characters of the message', () => {
    const reason = storageReason(new Error('x'.repeat(1000)));
    expect(reason).toBe(`storage refused the row: ${'x'.repeat(300)}`);
  });

  it('replaces a surrogate pair cut in half at the 300th character, so the reason is storable UTF-8', () => {
    const reason = storageReason(new Error(`${'x'.repeat(299)}😀 and more`));
    expect(reason).toBe(`storage refused the row: ${'x'.repeat(299)}\uFFFD`);
    expect(reason.isWellFormed()).toBe(true);
  });

  it('replaces a lone surrogate from the message itself', () => {
    expect(storageReason(new Error('bad \ud800 value'))).toBe('storage refused the row: bad \uFFFD value');
  });

  it('describes a thrown value that is not an Error', () => {
    expect(storageReason('plain text\nsecond')).toBe('storage refused the row: plain text');
    expect(storageReason(undefined)).toBe('storage refused the row: undefined');
    expect(storageReason(null)).toBe('storage refused the row: null');
  });
});
