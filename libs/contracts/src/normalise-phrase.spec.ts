import { normalisePhrase } from './normalise-phrase';

describe('normalisePhrase', () => {
  it.each([
    ['Blue Hat', 'blue hat'],
    ['BLUE HAT', 'blue hat'],
    ['  blue hat  ', 'blue hat'],
    ['blue   hat', 'blue hat'],
    ['blue\t\nhat', 'blue hat'],
    ['\u00a0blue\u3000hat\u2003', 'blue hat'],
    ['Gr\u00fcn', 'gr\u00fcn'], // NFC ü
    ['Gru\u0308n', 'gr\u00fcn'], // NFD u + combining diaeresis
    ['GRU\u0308N', 'gr\u00fcn'],
    ['Stra\u00dfe', 'stra\u00dfe'],
    ['\u0130stanbul', 'i\u0307stanbul'], // locale-independent lower-casing
  ])('%p -> %p', (raw, expected) => {
    expect(normalisePhrase(raw)).toBe(expected);
  });

  it('makes NFC and NFD spellings identical', () => {
    expect(normalisePhrase('M\u00fcller Sch\u00f6n')).toBe(normalisePhrase('Mu\u0308ller Scho\u0308n'));
  });

  it('is idempotent', () => {
    for (const raw of ['  A  b ', 'Gru\u0308N', 'x']) {
      expect(normalisePhrase(normalisePhrase(raw))).toBe(normalisePhrase(raw));
    }
  });
});
