import { algoliaIndexesProblem, MAX_ALGOLIA_INDEXES } from './algolia-index-names';

const INSTANCES = ['live', 'stage'];

describe('algoliaIndexes of PUT /configuration', () => {
  it('takes index names, each {} or with a language tag', () => {
    expect(algoliaIndexesProblem({}, INSTANCES)).toBeUndefined();
    expect(
      algoliaIndexesProblem({ shop_de: { language: 'de' }, 'shop de price ↑': {}, shop_ch: { language: 'de-CH' } }, INSTANCES),
    ).toBeUndefined();
  });

  it('names what is wrong', () => {
    expect(algoliaIndexesProblem([], INSTANCES)).toContain('algoliaIndexes must be an object');
    expect(algoliaIndexesProblem(null, INSTANCES)).toContain('algoliaIndexes must be an object');
    expect(algoliaIndexesProblem('shop_de', INSTANCES)).toContain('algoliaIndexes must be an object');
    const many = Object.fromEntries(Array.from({ length: MAX_ALGOLIA_INDEXES + 1 }, (_, i) => [`i${i}`, {}]));
    expect(algoliaIndexesProblem(many, INSTANCES)).toBe(`algoliaIndexes holds at most ${MAX_ALGOLIA_INDEXES} index names`);
    expect(algoliaIndexesProblem({ '': {} }, INSTANCES)).toContain('an index name must be 1 to 256 characters');
    expect(algoliaIndexesProblem({ 'a\nb': {} }, INSTANCES)).toContain('without control characters');
    expect(algoliaIndexesProblem({ ['x'.repeat(257)]: {} }, INSTANCES)).toContain('1 to 256 characters');
    expect(algoliaIndexesProblem({ stage: {} }, INSTANCES)).toContain('algoliaIndexes.stage is the name of an instance');
    expect(algoliaIndexesProblem({ shop: null }, INSTANCES)).toBe('algoliaIndexes.shop must be an object: {} or { "language": "<tag>" }');
    expect(algoliaIndexesProblem({ shop: ['de'] }, INSTANCES)).toContain('algoliaIndexes.shop must be an object');
    expect(algoliaIndexesProblem({ shop: { language: 'de', sort: 'price' } }, INSTANCES)).toBe(
      'algoliaIndexes.shop has an unknown field: sort (only language)',
    );
    expect(algoliaIndexesProblem({ shop: { language: 'German!' } }, INSTANCES)).toContain(
      'algoliaIndexes.shop.language must be a language tag',
    );
    expect(algoliaIndexesProblem({ shop: { language: 7 } }, INSTANCES)).toContain('algoliaIndexes.shop.language');
  });
});
