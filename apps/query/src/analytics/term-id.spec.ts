import { termId } from './term-id';

describe('termId', () => {
  // Computed independently: printf 'acme\0shop\0red shoes' | sha256sum | cut -c1-32
  it('is the first 32 hex digits of sha256 over customer, instance and phrase joined by NUL', () => {
    expect(termId('acme', 'shop', 'red shoes')).toBe('781142f489aa007f1ba14176a5842d67');
  });

  it('returns the same id for the same term on every call', () => {
    expect(termId('acme', 'shop', 'red shoes')).toBe(termId('acme', 'shop', 'red shoes'));
  });

  it('returns 32 lowercase hex digits, also for an empty or non-ASCII phrase', () => {
    for (const phrase of ['', 'Größe 42', '靴', 'x'.repeat(10_000)]) {
      expect(termId('acme', 'shop', phrase)).toMatch(/^[0-9a-f]{32}$/);
    }
  });

  it('gives another id when only the customer, the instance or the phrase differs', () => {
    const ids = [
      termId('acme', 'shop', 'red shoes'),
      termId('acme2', 'shop', 'red shoes'),
      termId('acme', 'shop2', 'red shoes'),
      termId('acme', 'shop', 'red shoe'),
      termId('acme', 'shop', 'Red shoes'),
    ];
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('does not collide when a space could move the boundary between the parts', () => {
    expect(termId('a', 'b c', 'd')).not.toBe(termId('a b', 'c', 'd'));
    expect(termId('a', 'b', 'c d')).not.toBe(termId('a', 'b c', 'd'));
    expect(termId('a', 'b', 'c')).not.toBe(termId('ab', '', 'c'));
    expect(termId('a', 'b', '')).not.toBe(termId('a', '', 'b'));
  });
});
