import { analyticsConfig, computingCache, statsQueryOf, fixedClock } from '../../../../test/support/analytics-fakes';
import { SearchStatsHandler } from './search-stats.handler';
import { SearchStatsQuery } from './search-stats.query';
import type { LanguageSearches, SearchStatsRepository, TotalsHour } from './search-stats.repository';

const at = (iso: string) => Date.parse(iso);
const hour = (iso: string, searches: number, zero: number, newest = at(iso) + 60_000): TotalsHour => ({
  hour: at(iso),
  searches,
  zero_hit_searches: zero,
  newest,
});

describe('SearchStatsHandler: repository rows to the answer', () => {
  // now: 2026-04-02T10:20:00Z (FIXED_NOW).
  fixedClock();

  /** `users`: the window's users, each bucket's (its index + 1), the previous window's (users - 1). */
  function stats(hours: TotalsHour[], distinct = { current: 0, previous: 0 }, languages: LanguageSearches[] = [], users = 0) {
    const repository = {
      hours: jest.fn().mockResolvedValue(hours),
      distinctTerms: jest.fn().mockResolvedValue(distinct),
      languages: jest.fn().mockResolvedValue(languages),
      users: jest
        .fn()
        .mockImplementation((_f, _r, starts: number[]) =>
          Promise.resolve(
            starts.length === 0 ? { total: Math.max(0, users - 1), buckets: [] } : { total: users, buckets: starts.map((_, i) => i + 1) },
          ),
        ),
    };
    const handler = new SearchStatsHandler(repository as unknown as SearchStatsRepository, computingCache(), analyticsConfig());
    const get = (query: Record<string, string>) => handler.execute(statsQueryOf(query));
    return { repository, get };
  }

  it('answers the last day per hour: window, totals, every bucket (zeros included), languages and the newest event', async () => {
    const languages = [
      { language: 'de', searches: 5 },
      { language: 'en', searches: 2 },
    ];
    const { get } = stats(
      [hour('2026-04-01T10:00:00Z', 4, 1), hour('2026-04-02T10:00:00Z', 3, 0, at('2026-04-02T10:19:30.500Z'))],
      { current: 5, previous: 0 },
      languages,
      6,
    );
    const { view, updatedAt } = await get({});
    expect(view.from).toBe('2026-04-01T10:00:00Z');
    expect(view.to).toBe('2026-04-02T11:00:00Z');
    expect(view.interval).toBe('hour');
    // Not rounded: 1 / 7.
    expect(view.totals).toStrictEqual({
      searches: 7,
      zero_hit_searches: 1,
      zero_hit_rate: 0.14285714285714285,
      distinct_terms: 5,
      users: 6,
    });
    expect(view.series).toHaveLength(25);
    expect(view.series[0]).toStrictEqual({
      start: '2026-04-01T10:00:00Z',
      searches: 4,
      zero_hit_searches: 1,
      zero_hit_rate: 0.25,
      users: 1,
    });
    expect(view.series[1]).toStrictEqual({ start: '2026-04-01T11:00:00Z', searches: 0, zero_hit_searches: 0, zero_hit_rate: 0, users: 2 });
    expect(view.series[24]).toStrictEqual({
      start: '2026-04-02T10:00:00Z',
      searches: 3,
      zero_hit_searches: 0,
      zero_hit_rate: 0,
      users: 25,
    });
    expect(view).not.toHaveProperty('previous');
    expect(view.languages).toStrictEqual(languages);
    expect(updatedAt).toBe('2026-04-02T10:19:30.500Z');
  });

  it('buckets by day in tz with its offsets (a 23-hour day at the switch to summer time), the window in tz', async () => {
    const { get } = stats([
      hour('2026-03-28T22:00:00Z', 2, 0), // 2026-03-28 23:00 in Berlin
      hour('2026-03-28T23:00:00Z', 3, 3), // 2026-03-29 00:00 in Berlin
      hour('2026-03-29T21:00:00Z', 1, 0), // 2026-03-29 23:00 in Berlin (summer time)
    ]);
    const { view } = await get({ since: '7d', tz: 'Europe/Berlin' });
    expect(view.from).toBe('2026-03-26T11:00:00+01:00');
    expect(view.to).toBe('2026-04-02T13:00:00+02:00');
    expect(view.interval).toBe('day');
    expect(view.series.map((b) => [b.start, b.searches, b.zero_hit_searches, b.zero_hit_rate])).toStrictEqual([
      ['2026-03-26T00:00:00+01:00', 0, 0, 0],
      ['2026-03-27T00:00:00+01:00', 0, 0, 0],
      ['2026-03-28T00:00:00+01:00', 2, 0, 0],
      ['2026-03-29T00:00:00+01:00', 4, 3, 0.75],
      ['2026-03-30T00:00:00+02:00', 0, 0, 0],
      ['2026-03-31T00:00:00+02:00', 0, 0, 0],
      ['2026-04-01T00:00:00+02:00', 0, 0, 0],
      ['2026-04-02T00:00:00+02:00', 0, 0, 0],
    ]);
  });

  it('with compare=previous reads both windows at once and splits them: totals of the window, previous of the one before', async () => {
    const { repository, get } = stats(
      [hour('2026-03-20T10:00:00Z', 8, 2, at('2026-03-20T10:30:00Z')), hour('2026-03-30T10:00:00Z', 6, 3)],
      { current: 4, previous: 7 },
      [],
      3,
    );
    const { view, updatedAt } = await get({ since: '7d', compare: 'previous' });
    expect(repository.hours).toHaveBeenCalledWith(
      { customer: 'acme', instance: 'shop', language: undefined, includeBots: false },
      { from: at('2026-03-19T09:00:00Z'), to: at('2026-04-02T11:00:00Z') },
      undefined,
    );
    // The previous window's users: its total alone (no buckets).
    expect(repository.users).toHaveBeenCalledWith(
      expect.anything(),
      expect.objectContaining({ to: at('2026-03-26T10:00:00Z') }),
      [],
      undefined,
    );
    expect(view.totals).toStrictEqual({ searches: 6, zero_hit_searches: 3, zero_hit_rate: 0.5, distinct_terms: 4, users: 3 });
    expect(view.previous).toStrictEqual({ searches: 8, zero_hit_searches: 2, zero_hit_rate: 0.25, distinct_terms: 7, users: 2 });
    expect(view.series.reduce((sum, b) => sum + b.searches, 0)).toBe(6);
    // The newest event of the window only.
    expect(updatedAt).toBe('2026-03-30T10:01:00.000Z');
  });

  it('answers a window without searches with zeros, a rate of 0 (not NaN) and no X-Data-Updated-At', async () => {
    const { get } = stats([]);
    const { view, updatedAt } = await get({ since: '1d', compare: 'previous' });
    expect(view.totals).toStrictEqual({ searches: 0, zero_hit_searches: 0, zero_hit_rate: 0, distinct_terms: 0, users: 0 });
    expect(view.previous).toStrictEqual({ searches: 0, zero_hit_searches: 0, zero_hit_rate: 0, distinct_terms: 0, users: 0 });
    expect(view.series.every((b) => b.searches === 0 && b.zero_hit_rate === 0)).toBe(true);
    expect(view.languages).toStrictEqual([]);
    expect(updatedAt).toBeUndefined();
  });

  it('runs only the statements of the parts asked for (a route showing the searches per day reads only the hours)', async () => {
    const { repository, get } = stats([hour('2026-04-01T10:00:00Z', 4, 1)], { current: 5, previous: 0 }, [], 6);
    const base = statsQueryOf({ since: '1d', compare: 'previous' });
    const none = { users: false, distinctTerms: false, languages: false, unattributed: false, positions: false };
    const lean = new SearchStatsQuery(base.criteria, base.interval, base.compare, false, undefined, none);
    const { view } = await new SearchStatsHandler(repository as never, computingCache(), analyticsConfig()).execute(lean);
    expect([repository.hours, repository.distinctTerms, repository.languages, repository.users].map((f) => f.mock.calls.length)).toEqual([
      1, 0, 0, 0,
    ]);
    // What was not read is 0 (the caller does not show it); what was read is as in the full answer.
    expect(view.totals).toStrictEqual({ searches: 4, zero_hit_searches: 1, zero_hit_rate: 0.25, distinct_terms: 0, users: 0 });
    expect(view.languages).toStrictEqual([]);
    await get({ since: '1d', compare: 'previous' });
    expect([repository.hours, repository.distinctTerms, repository.languages, repository.users].map((f) => f.mock.calls.length)).toEqual([
      2, 1, 1, 2,
    ]);
  });

  it('keeps an answer of some parts apart from the whole answer in the cache', async () => {
    const { repository } = stats([hour('2026-04-01T10:00:00Z', 4, 1)], { current: 5, previous: 0 }, [], 6);
    const answers = new Map<string, Promise<object>>();
    const keyed = {
      get: (_scope: unknown, key: unknown, compute: () => Promise<object>) => {
        const id = JSON.stringify(key);
        answers.set(id, answers.get(id) ?? compute());
        return answers.get(id);
      },
    };
    const handler = new SearchStatsHandler(repository as never, keyed as never, analyticsConfig());
    const base = statsQueryOf({ since: '1d' });
    const none = { users: false, distinctTerms: false, languages: false, unattributed: false, positions: false };
    await handler.execute(new SearchStatsQuery(base.criteria, base.interval, base.compare, false, undefined, none));
    const { view } = await handler.execute(base);
    expect([view.totals.users, view.totals.distinct_terms]).toEqual([6, 5]);
  });
});
