import { DomainError } from '@app/errors';
import { algoliaRequest, LIST, nativeWindow, PHRASE_LIST, TOP_SEARCHES, WINDOW } from './algolia-request';

const NOW = Date.parse('2026-11-29T10:30:00Z');
const read = (query: Record<string, unknown>, allowed = LIST, retentionDays = 400) => algoliaRequest(query, allowed, NOW, retentionDays);
const refused = (query: Record<string, unknown>, allowed = LIST, retentionDays = 400) => {
  try {
    read(query, allowed, retentionDays);
  } catch (err) {
    expect(err).toBeInstanceOf(DomainError);
    return (err as DomainError).publicMessage;
  }
  throw new Error('accepted');
};

describe("Algolia's Analytics API parameters", () => {
  it('defaults to the eight days ending today, ten entries from the first, most first', () => {
    expect(read({ index: 'live' })).toEqual({
      index: 'live',
      startDate: '2026-11-22',
      endDate: '2026-11-29',
      limit: 10,
      offset: 0,
      orderBy: 'searchCount',
      direction: 'desc',
      clickAnalytics: false,
      revenueAnalytics: false,
      tags: undefined,
      search: undefined,
    });
    expect(read({ index: 'live', endDate: '2026-11-10' })).toMatchObject({ startDate: '2026-11-03', endDate: '2026-11-10' });
  });

  it('reads the window as whole UTC days, both inclusive', () => {
    expect(nativeWindow({ startDate: '2026-11-01', endDate: '2026-11-30' })).toEqual({ from: '2026-11-01', to: '2026-12-01', tz: 'UTC' });
  });

  it('ignores the x-algolia-* parameters the client sends, and implies clickAnalytics with revenueAnalytics', () => {
    const req = read({ index: 'live', 'x-algolia-agent': 'Algolia for JavaScript', 'X-Algolia-API-Key': 'k', revenueAnalytics: 'true' }, [
      ...LIST,
      'clickAnalytics',
      'revenueAnalytics',
    ]);
    expect([req.clickAnalytics, req.revenueAnalytics]).toEqual([true, true]);
  });

  it('answers 400 naming the parameter', () => {
    expect(refused({})).toContain('index is required');
    expect(refused({ index: 'live', startDate: '2026-11-31' })).toContain('startDate must be a date');
    expect(refused({ index: 'live', endDate: '29.11.2026' })).toContain('endDate must be a date');
    expect(refused({ index: 'live', startDate: '2026-11-20', endDate: '2026-11-19' })).toContain('startDate must not be after endDate');
    expect(read({ index: 'live', endDate: '2026-11-30' }).endDate).toBe('2026-11-30');
    expect(refused({ index: 'live', endDate: '2026-12-01' })).toBe('endDate must not be after 2026-11-30: later days have no searches yet');
    expect(refused({ index: 'live', endDate: '9999-12-31' })).toContain('endDate must not be after');
    expect(refused({ index: 'live', startDate: '2026-10-01' }, LIST, 30)).toBe(
      'startDate must not be before 2026-10-31: the retention is 30 days (RETENTION_DAYS)',
    );
    expect(refused({ index: 'live', limit: '0' })).toContain('limit must be an integer from 1 to 1000');
    expect(refused({ index: 'live', limit: '1001' })).toContain('limit');
    expect(refused({ index: 'live', offset: '-1' })).toContain('offset');
    expect(refused({ index: 'live', index2: 'x' })).toContain('index2 is not a parameter of this route');
    expect(refused({ index: ['live', 'stage'] })).toBe(
      'index must be given once, as index=value (not repeated, not index[]= or index[key]=)',
    );
    expect(refused({ index: 'live', limit: '5' }, WINDOW)).toContain('limit is not a parameter of this route');
    expect(refused({ index: 'live', tags: 'a AND b OR c' })).toContain('tags');
    expect(refused({ index: 'live', orderBy: 'clicks' }, TOP_SEARCHES)).toContain('orderBy must be one of');
    expect(refused({ index: 'live', orderBy: 'clickThroughRate' }, TOP_SEARCHES)).toBe(
      'orderBy=clickThroughRate needs clickAnalytics=true',
    );
    expect(refused({ index: 'live', direction: 'up' }, TOP_SEARCHES)).toBe('direction must be asc or desc');
    expect(refused({ index: 'live', clickAnalytics: 'yes' }, TOP_SEARCHES)).toBe('clickAnalytics must be true or false');
    expect(refused({ index: 'live', clickAnalytics: 'true', tags: 'a' }, TOP_SEARCHES)).toContain(
      'tags cannot be combined with clickAnalytics',
    );
    expect(refused({ index: 'live', search: '   ' }, PHRASE_LIST)).toContain('search is empty');
    expect(refused({ index: 'live', search: 'é'.repeat(501) }, PHRASE_LIST)).toBe('search is longer than 500 characters');
    expect(read({ index: 'live', search: 'é'.repeat(500) }, PHRASE_LIST).search).toHaveLength(500);
    // Characters, not UTF-16 units: 500 emoji are 1,000 units.
    expect([...(read({ index: 'live', search: '😀'.repeat(500) }, PHRASE_LIST).search ?? '')]).toHaveLength(500);
  });
});
