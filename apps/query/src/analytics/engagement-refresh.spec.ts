import { hourRuns } from './engagement-refresh';

const H = 3_600_000;

describe('hourRuns', () => {
  it('joins consecutive hours, in any order and repeated, into ranges of at most 24 hours', () => {
    const hours = [5, 3, 4, 4, 9, ...Array.from({ length: 30 }, (_, i) => 100 + i)].map((h) => h * H);
    expect(hourRuns(hours)).toEqual([
      { from: 3 * H, to: 6 * H },
      { from: 9 * H, to: 10 * H },
      { from: 100 * H, to: 124 * H },
      { from: 124 * H, to: 130 * H },
    ]);
  });

  it('is empty without hours', () => {
    expect(hourRuns([])).toEqual([]);
  });
});
