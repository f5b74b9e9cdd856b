import { termId } from '../apps/query/src/analytics/term-id';
import { LEGACY_SECRET, basicHeader, createKey, hmacHeaders, http, startApp, type TestApp } from './support/test-app';

type Suggestions = { suggestions: Array<{ search_phrase: string; count: number; distance: number }> };

/** GET /search-terms/{id}/suggestions over HTTP, on searches sent through POST /events. */
describe('GET /search-terms/{id}/suggestions (e2e over HTTP)', () => {
  let t: TestApp;
  const many = (n: number, phrase: string, hits: number, language = 'de') => Array.from({ length: n }, () => ({ phrase, language, hits }));
  const id = (phrase: string) => termId('demo', 'live', phrase);
  const suggestions = (phrase: string, query = '', headers = basicHeader()) =>
    http<Suggestions>(`${t.url}/search-terms/${id(phrase)}/suggestions${query}`, { headers });
  const pairs = async (phrase: string, query = '') =>
    (await suggestions(phrase, query)).body.suggestions.map((s) => [s.search_phrase, s.count, s.distance]);

  beforeAll(async () => {
    t = await startApp();
    const body = JSON.stringify({
      events: [
        // The zero-result term, also searched once with results: never its own suggestion.
        ...many(3, 'sneker', 0),
        ...many(1, 'sneker', 2),
        ...many(5, 'sneaker', 4), // an insertion: 1
        ...many(3, 'sneakers', 4), // 2
        ...many(10, 'sneakers', 0), // zero-result searches of a candidate do not count
        ...many(3, 'snekr', 1), // a deletion: 1
        ...many(2, 'snkeer', 1), // a transposition: 1
        ...many(1, 'snaker', 1), // a substitution: 1
        ...many(1, 'sneeker', 1), // 1, but the sixth: left out
        ...many(9, 'sneaky', 3), // 3: too far
        ...many(4, 'sandale', 3),
        // Equal once spaces and hyphens are removed: distance 0.
        ...many(2, 'rain jacket', 0),
        ...many(4, 'rainjacket', 6),
        ...many(1, 'rain-jacket', 6),
        // An umlaut is one code point: 1 (the engine's damerauLevenshteinDistance, counting bytes, says 2).
        ...many(2, 'fur', 0),
        ...many(2, 'für', 5),
        ...many(7, 'fun', 0), // close, but never found anything
        // Another language.
        ...many(6, 'snekker', 2, 'nb'),
      ],
    });
    const sent = await http<{ rejected: unknown[] }>(`${t.url}/events`, {
      method: 'POST',
      headers: hmacHeaders(LEGACY_SECRET, body),
      body,
    });
    expect(sent.body.rejected).toEqual([]);
  });
  afterAll(() => t.close());

  it('lists at most 5 close terms that found results: most searched, then distance, then phrase', async () => {
    const res = await suggestions('sneker');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      suggestions: [
        { search_phrase: 'snekker', count: 6, distance: 1 },
        { search_phrase: 'sneaker', count: 5, distance: 1 },
        { search_phrase: 'snekr', count: 3, distance: 1 },
        { search_phrase: 'sneakers', count: 3, distance: 2 },
        { search_phrase: 'snkeer', count: 2, distance: 1 },
      ],
    });
    // The filters of the list apply: de alone.
    expect(await pairs('sneker', '?language=de')).toEqual([
      ['sneaker', 5, 1],
      ['snekr', 3, 1],
      ['sneakers', 3, 2],
      ['snkeer', 2, 1],
      ['snaker', 1, 1],
    ]);
  });

  it('counts spaces and hyphens as nothing, and a code point as one', async () => {
    expect(await pairs('rain jacket')).toEqual([
      ['rainjacket', 4, 0],
      ['rain-jacket', 1, 0],
    ]);
    expect(await pairs('fur')).toEqual([['für', 2, 1]]);
  });

  it('answers an empty list when nothing close found results', async () => {
    expect((await suggestions('sandale')).body).toEqual({ suggestions: [] });
  });

  it('is a 404 for a term not searched in the window, a 400 for an id not of the list, a 401/403 without search:read', async () => {
    const unknown = await suggestions('never searched');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ message: `No search of the term ${id('never searched')} in the window` });
    expect((await suggestions('sneker', '?language=fr')).status).toBe(404);
    const bad = await http<{ message: string }>(`${t.url}/search-terms/XYZ/suggestions`, { headers: basicHeader() });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^id must be 32 lowercase hex characters/);
    expect((await http(`${t.url}/search-terms/${id('sneker')}/suggestions`)).status).toBe(401);
    const writer = await createKey(t.url, ['search:write']);
    expect((await suggestions('sneker', '', hmacHeaders(writer.secret))).status).toBe(403);
  });
});
