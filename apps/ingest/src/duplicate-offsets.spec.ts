import { mergeRanges, offsetRanges } from './duplicate-offsets';

const range = (partition: number, first: number, last: number, topic = 't') => ({ topic, partition, first, last });

describe('mergeRanges (overlapping inserts of a partition)', () => {
  it('merges ranges that intersect or touch, in any order', () => {
    expect(mergeRanges([range(0, 100, 149), range(0, 50, 99), range(0, 120, 199)])).toEqual([range(0, 50, 199)]);
  });

  it('keeps ranges with a gap, and partitions and topics apart', () => {
    expect(mergeRanges([range(0, 0, 9), range(0, 11, 20), range(1, 5, 9), range(0, 5, 9, 'u')])).toEqual([
      range(0, 0, 9),
      range(0, 11, 20),
      range(1, 5, 9),
      range(0, 5, 9, 'u'),
    ]);
  });
});

describe('offsetRanges', () => {
  it('writes offsets as compact ranges', () => {
    expect(offsetRanges([9, 3, 4, 5, 12, 11])).toBe('3-5,9,11-12');
    expect(offsetRanges([])).toBe('');
  });
});
