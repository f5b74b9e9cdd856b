import { DomainError } from '@app/errors';
import { MAX_TAG_LENGTH } from '@app/contracts';
import { parseTags } from './tags-param';

/** The `tags` query parameter (Algolia's form): what it matches, and its 400s, each naming the problem. */
describe('parseTags', () => {
  const problem = (value: string) => {
    try {
      parseTags(value);
    } catch (e) {
      expect(e).toBeInstanceOf(DomainError);
      return (e as DomainError).message;
    }
    throw new Error(`${value} was accepted`);
  };

  it('reads one tag, tags joined by AND, tags joined by OR, each percent-decoded once', () => {
    expect(parseTags(undefined)).toBeUndefined();
    expect(parseTags('mobile')).toEqual({ match: 'and', tags: ['mobile'] });
    expect(parseTags('mobile AND bf')).toEqual({ match: 'and', tags: ['mobile', 'bf'] });
    expect(parseTags('mobile OR bf')).toEqual({ match: 'or', tags: ['mobile', 'bf'] });
    expect(parseTags('a%20b OR %2541')).toEqual({ match: 'or', tags: ['a b', '%41'] });
    // Lower case is no joiner: one tag.
    expect(parseTags('mobile and bf')).toEqual({ match: 'and', tags: ['mobile and bf'] });
  });

  it('takes any tag the intake stores: up to its limit in characters, not UTF-16 units', () => {
    const emoji = '😀'.repeat(MAX_TAG_LENGTH);
    expect(emoji.length).toBe(2 * MAX_TAG_LENGTH);
    expect(parseTags(emoji)).toEqual({ match: 'and', tags: [emoji] });
    expect(parseTags('x'.repeat(MAX_TAG_LENGTH))).toEqual({ match: 'and', tags: ['x'.repeat(MAX_TAG_LENGTH)] });
  });

  it('answers a 400 that names the problem for mixed joiners, bad percent-encoding, an empty or a too long tag', () => {
    expect(problem('a AND b OR c')).toBe('tags must join tags with AND or with OR, not both');
    expect(problem('%E0%A4%A')).toBe('tags holds a malformed percent-encoding');
    const size = `tags must hold tags of 1 to ${MAX_TAG_LENGTH} characters, joined by AND or OR`;
    expect(problem('')).toBe(size);
    expect(problem('a AND ')).toBe(size);
    expect(problem('x'.repeat(MAX_TAG_LENGTH + 1))).toBe(size);
    expect(problem('😀'.repeat(MAX_TAG_LENGTH + 1))).toBe(size);
  });
});
