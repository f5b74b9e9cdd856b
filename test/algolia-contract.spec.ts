import { algoliaViolations } from './support/algolia-contract';

const answer = (url: string, status: number, body: unknown) => algoliaViolations(url, status, JSON.stringify(body));

/** The check of answers against Algolia's Analytics document (test/support/algolia-contract.ts) fails what it must. */
describe("Algolia's Analytics document as a contract", () => {
  it('fails an extra field, a missing field and a wrong type', () => {
    expect(answer('/2/searches/count?index=live', 200, { count: 1, dates: [{ date: '2026-11-29', count: 1 }] })).toEqual([]);
    expect(answer('/2/searches/count?index=live', 200, { count: 1, dates: [], extra: 1 })).not.toEqual([]);
    expect(answer('/2/searches/count?index=live', 200, { count: 1 })).not.toEqual([]);
    expect(answer('/2/searches/count?index=live', 200, { count: '1', dates: [] })).not.toEqual([]);
    expect(
      answer('/2/searches/noResults?index=live', 200, { searches: [{ search: 'x', count: 1, withFilterCount: 0, nbHits: 0 }] }),
    ).not.toEqual([]);
  });

  it('picks the top searches branch from the request, so an empty list passes and a list of another branch fails', () => {
    expect(answer('/2/searches?index=live', 200, { searches: [] })).toEqual([]);
    expect(answer('/2/searches?index=live&clickAnalytics=true', 200, { searches: [] })).toEqual([]);
    expect(answer('/2/searches?index=live&clickAnalytics=true', 200, { searches: [{ search: 'x', count: 1, nbHits: 2 }] })).not.toEqual([]);
    expect(answer('/2/hits?index=live', 200, { hits: [{ hit: 'sku-1', count: 2 }] })).toEqual([]);
  });

  it('reads null rates as the document means them, and takes a day without a search without a click', () => {
    const day = { date: '2026-11-29', rate: null, clickCount: 0, trackedSearchCount: 0 };
    expect(answer('/2/clicks/clickThroughRate?index=live', 200, { ...day, date: undefined, dates: [day] })).toEqual([]);
    const quiet = { date: '2026-11-29', rate: 0, count: 0, noClickCount: 0 };
    expect(answer('/2/searches/noClickRate?index=live', 200, { rate: 0, count: 0, noClickCount: 0, dates: [quiet] })).toEqual([]);
  });

  it('checks errors against ErrorBase, 401 and 429 too', () => {
    expect(answer('/2/searches?index=x', 404, { message: 'Unknown index x', status: 404 })).toEqual([]);
    expect(answer('/2/searches?index=live', 401, { message: 'no', status: 401 })).toEqual([]);
    expect(answer('/2/searches?index=live', 429, { message: 5 })).not.toEqual([]);
  });
});
