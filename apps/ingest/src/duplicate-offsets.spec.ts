import { offsetRanges, overlaps } from './duplicate-offsets';

const block = (partition: number, first: number, last: number, topic = 't') => ({ topic, partition, first, last });

describe('overlaps of inserted offset ranges', () => {
  it('finds none where the ranges of a partition follow each other', () => {
    expect(overlaps([block(0, 0, 99), block(0, 100, 199), block(1, 0, 99), block(0, 250, 260)])).toEqual([]);
  });

  it('finds the range a second insert covered again, in any order of the blocks', () => {
    expect(overlaps([block(0, 100, 250), block(0, 0, 99), block(0, 100, 199)])).toEqual([block(0, 100, 199)]);
    expect(overlaps([block(0, 0, 199), block(0, 150, 300)])).toEqual([block(0, 150, 199)]);
  });

  it('merges overlaps that touch, and keeps partitions and topics apart', () => {
    expect(
      overlaps([
        block(0, 0, 99),
        block(0, 50, 149),
        block(0, 100, 199),
        block(1, 0, 9),
        block(1, 5, 9),
        block(0, 0, 9, 'u'),
        block(1, 20, 30),
      ]),
    ).toEqual([block(0, 50, 149), block(1, 5, 9)]);
  });

  it('finds a range inserted twice with the same boundaries (another token)', () => {
    expect(overlaps([block(2, 7, 7), block(2, 7, 7)])).toEqual([block(2, 7, 7)]);
  });
});

describe('offsetRanges', () => {
  it('writes offsets as compact ranges', () => {
    expect(offsetRanges([9, 3, 4, 5, 12, 11])).toBe('3-5,9,11-12');
    expect(offsetRanges([])).toBe('');
  });
});
