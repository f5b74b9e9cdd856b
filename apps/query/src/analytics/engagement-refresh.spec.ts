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

  it('with searches, ends a range before it would hold more than the most; an hour with more is a range alone', () => {
    const searches = new Map([
      [1, 40],
      [2, 50],
      [3, 20],
      [4, 150],
      [5, 0],
      [6, 100],
    ]);
    const runs = hourRuns(
      [...searches.keys()].map((h) => h * H),
      24,
      { of: (hour) => searches.get(hour / H) ?? 0, most: 100 },
    );
    expect(runs).toEqual([
      { from: 1 * H, to: 3 * H },
      { from: 3 * H, to: 4 * H },
      { from: 4 * H, to: 5 * H },
      { from: 5 * H, to: 7 * H },
    ]);
  });

  it('is empty without hours', () => {
    expect(hourRuns([])).toEqual([]);
  });
});
