import { compact, damerauLevenshtein } from './distance';

describe('damerauLevenshtein (optimal string alignment, code points)', () => {
  it.each([
    ['sneaker', 'sneaker', 0],
    ['sneker', 'sneaker', 1],
    ['fur', 'für', 1],
    ['für', 'fur', 1],
    ['ab', 'ba', 1],
    ['snaeker', 'sneaker', 1],
    ['winterjack', 'winterjacke', 1],
    ['jakce', 'jacke', 1],
    ['ca', 'abc', 3],
    ['', 'ab', 2],
    ['👟 schuh', '👟 schuhe', 1],
    ['abcd', 'badc', 2],
  ])('%s / %s: %d', (a, b, expected) => {
    expect(damerauLevenshtein(a, b, 3)).toBe(expected);
  });

  it('is undefined beyond the maximum, also when the lengths alone say so', () => {
    expect(damerauLevenshtein('kitten', 'sitting', 2)).toBeUndefined();
    expect(damerauLevenshtein('a', 'abcd', 2)).toBeUndefined();
    expect(damerauLevenshtein('abc', 'xyz', 2)).toBeUndefined();
    expect(damerauLevenshtein('kitten', 'sitting', 3)).toBe(3);
  });

  it('compact drops spaces and hyphens only', () => {
    expect(compact('rain jacket')).toBe('rainjacket');
    expect(compact('t-shirt  xl')).toBe('tshirtxl');
    expect(compact('a_b.c')).toBe('a_b.c');
  });
});
