import type { FieldStats } from './document-stats.repository';
import { checkField } from './check-data.handler';

/** Stats of a field whose values spread over [min, max], all in range unless told. */
function stats(withData: number, min: number | null, max: number | null, outOfRange = 0): FieldStats {
  return { withData, outOfRange, min, max };
}

describe('checkField', () => {
  it('passes a field that half the documents or more fill with distinct values in [0, 1]', () => {
    expect(checkField(stats(80, 0.1, 0.9), 100)).toEqual({ result: true });
  });

  it('accepts the boundaries 0 and 1 as valid values', () => {
    expect(checkField(stats(100, 0, 1), 100)).toEqual({ result: true });
  });

  it('reports low data and no ranking mix data when there are no documents', () => {
    expect(checkField(stats(0, null, null), 0)).toEqual({ result: false, reasons: ['Low amount of data', 'No ranking mix data.'] });
  });

  it('reports low data (and no signal) when no document has a value', () => {
    expect(checkField(stats(0, null, null), 10)).toEqual({ result: false, reasons: ['Low amount of data', 'No ranking mix data.'] });
  });

  it('reports low data when fewer than half of the documents have a value', () => {
    expect(checkField(stats(49, 0, 1), 100)).toEqual({ result: false, reasons: ['Low amount of data'] });
    expect(checkField(stats(50, 0, 1), 101)).toEqual({ result: false, reasons: ['Low amount of data'] });
  });

  it('counts exactly half of the documents with a value as enough data', () => {
    expect(checkField(stats(50, 0, 1), 100)).toEqual({ result: true });
    expect(checkField(stats(51, 0, 1), 101)).toEqual({ result: true });
  });

  it('reports invalid boosting data when a single value is out of range', () => {
    expect(checkField(stats(100, 0, 1.5, 1), 100)).toEqual({ result: false, reasons: ['Invalid boosting data'] });
    expect(checkField(stats(100, -0.5, 1, 1), 100)).toEqual({ result: false, reasons: ['Invalid boosting data'] });
  });

  it('reports no ranking mix data when every value is the same', () => {
    expect(checkField(stats(100, 0.5, 0.5), 100)).toEqual({ result: false, reasons: ['No ranking mix data.'] });
    expect(checkField(stats(1, 0, 0), 1)).toEqual({ result: false, reasons: ['No ranking mix data.'] });
  });

  it('lists every failing check in the documented order', () => {
    expect(checkField(stats(1, 7, 7, 1), 10)).toEqual({
      result: false,
      reasons: ['Low amount of data', 'Invalid boosting data', 'No ranking mix data.'],
    });
  });
});
