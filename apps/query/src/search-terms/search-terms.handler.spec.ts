import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { DomainError } from '@app/errors';
import {
  FIXED_NOW,
  RETENTION_DAYS,
  analyticsConfig,
  computingCache,
  fixedClock,
  immediateSlots,
  termsCriteriaOf,
} from '../../../../test/support/analytics-fakes';
import { ExportSearchTermsHandler, MAX_EXPORT_ROWS, SearchTermsHandler, termsRequest } from './search-terms.handler';
import { ExportSearchTermsQuery, SearchTermsQuery } from './search-terms.query';
import type { SearchTermsRepository, TermRow } from './search-terms.repository';

const at = (iso: string) => Date.parse(iso);
/** termId('acme', 'shop', ...): the ids a client keeps across requests. */
const SUMMER_DRESS = '97a12b91792dfc29b861d7fdd3c9dc09';
const RED_SHOES = '781142f489aa007f1ba14176a5842d67';

describe('termsRequest', () => {
  const request = (query: Record<string, string>, retentionDays = RETENTION_DAYS) =>
    termsRequest(termsCriteriaOf(query), FIXED_NOW, retentionDays);

  it('asks for the top terms of the last day, first page of 10, by count, without a previous window', () => {
    expect(request({})).toEqual({
      scope: {
        customer: 'acme',
        instance: 'shop',
        language: undefined,
        includeBots: false,
        window: { from: at('2026-04-01T10:00:00Z'), to: at('2026-04-02T11:00:00Z'), tz: 'UTC' },
      },
      zeroHits: false,
      previous: undefined,
      sort: 'count',
      handled: undefined,
      start: 0,
      limit: 10,
    });
  });

  it('passes the filters on and turns _start/_end into an offset and a page size', () => {
    const r = request({
      since: '30d',
      language: 'de',
      includeBotTraffic: 'true',
      hits: 'false',
      handled: 'false',
      _start: '20',
      _end: '45',
    });
    expect(r.scope).toEqual({
      customer: 'acme',
      instance: 'shop',
      language: 'de',
      includeBots: true,
      window: { from: at('2026-03-03T10:00:00Z'), to: at('2026-04-02T11:00:00Z'), tz: 'UTC' },
    });
    expect(r).toMatchObject({ zeroHits: true, handled: false, start: 20, limit: 25 });
  });

  it('reads a from/to range in tz: dates are midnight there, the window keeps tz', () => {
    const r = request({ from: '2026-03-26', to: '2026-04-02', tz: 'Europe/Berlin' });
    // Midnight in Berlin is 23:00 UTC before the switch to summer time (2026-03-29), 22:00 UTC after it.
    expect(r.scope.window).toEqual({ from: at('2026-03-25T23:00:00Z'), to: at('2026-04-01T22:00:00Z'), tz: 'Europe/Berlin' });
  });

  it('adds the window of the same length just before with compare=previous, and with sort=rising alone', () => {
    const previous = { from: at('2026-03-19T09:00:00Z'), to: at('2026-03-26T10:00:00Z'), tz: 'UTC' };
    expect(request({ since: '7d', compare: 'previous' }).previous).toEqual(previous);
    expect(request({ since: '7d', sort: 'rising' })).toMatchObject({ previous, sort: 'rising' });
  });

  it('asks for up to MAX_EXPORT_ROWS terms for a CSV without _start/_end', () => {
    expect(MAX_EXPORT_ROWS).toBe(100_000);
    expect(request({ format: 'csv' })).toMatchObject({ start: 0, limit: 100_000 });
    expect(request({ format: 'csv', _start: '5', _end: '15' })).toMatchObject({ start: 5, limit: 10 });
  });

  it('refuses handled without hits=false, and a previous window before the retention, naming the parameter', () => {
    expect(() => request({ handled: 'true' })).toThrow(new DomainError('invalid', 'handled is only allowed with hits=false'));
    expect(() => request({ since: '7d', compare: 'previous' }, 10)).toThrow(
      new DomainError(
        'invalid',
        'compare=previous needs the previous window within the retention of 10 days (RETENTION_DAYS); choose a shorter window',
      ),
    );
  });
});

describe('SearchTermsHandler: repository rows to the answer', () => {
  fixedClock();

  function handler(rows: TermRow[], total = rows.length, newest?: string) {
    const repository = {
      terms: jest.fn().mockResolvedValue({ rows, total }),
      newestEvent: jest.fn().mockResolvedValue(newest),
    };
    const h = new SearchTermsHandler(repository as unknown as SearchTermsRepository, computingCache(), analyticsConfig());
    return { repository, page: (query: Record<string, string>) => h.execute(new SearchTermsQuery(termsCriteriaOf(query))) };
  }

  it('answers each term with its stable id, phrase and count, status null; the total and newest event from the repository', async () => {
    const { repository, page } = handler(
      [
        { phrase: 'summer dress', count: 42 },
        { phrase: 'red shoes', count: 7 },
      ],
      120,
      '2026-04-02T10:19:59.123Z',
    );
    const answer = await page({ _start: '0', _end: '2' });
    expect(answer).toStrictEqual({
      items: [
        { id: SUMMER_DRESS, search_phrase: 'summer dress', count: 42, status: null },
        { id: RED_SHOES, search_phrase: 'red shoes', count: 7, status: null },
      ],
      total: 120,
      updatedAt: '2026-04-02T10:19:59.123Z',
    });
    const r = termsRequest(termsCriteriaOf({ _start: '0', _end: '2' }), FIXED_NOW, RETENTION_DAYS);
    expect(repository.terms).toHaveBeenCalledWith(r, FIXED_NOW);
    expect(repository.newestEvent).toHaveBeenCalledWith(r);
  });

  it('adds previous_count and change (count / previous_count - 1, not rounded; null when previous_count is 0)', async () => {
    const { page } = handler([
      { phrase: 'summer dress', count: 3, previous_count: 2 },
      { phrase: 'red shoes', count: 1, previous_count: 3 },
      { phrase: 'new term', count: 5, previous_count: 0 },
    ]);
    const { items } = await page({ compare: 'previous' });
    expect(
      items.map(({ search_phrase, count, previous_count, change }) => ({ search_phrase, count, previous_count, change })),
    ).toStrictEqual([
      { search_phrase: 'summer dress', count: 3, previous_count: 2, change: 0.5 },
      { search_phrase: 'red shoes', count: 1, previous_count: 3, change: -0.6666666666666667 },
      { search_phrase: 'new term', count: 5, previous_count: 0, change: null },
    ]);
    expect(items[0].status).toBeNull();
  });

  it('gives zero-result terms their status: handled with the handlers as {type, id} in order, or not handled with none', async () => {
    const { page } = handler([
      {
        phrase: 'summer dress',
        count: 4,
        handlers: [
          ['category', 'dresses'],
          ['productfeed', 'p-1'],
        ],
      },
      { phrase: 'red shoes', count: 2, handlers: [] },
    ]);
    const { items } = await page({ hits: 'false' });
    expect(items).toStrictEqual([
      {
        id: SUMMER_DRESS,
        search_phrase: 'summer dress',
        count: 4,
        status: {
          handled: true,
          handlers: [
            { type: 'category', id: 'dresses' },
            { type: 'productfeed', id: 'p-1' },
          ],
        },
      },
      { id: RED_SHOES, search_phrase: 'red shoes', count: 2, status: { handled: false, handlers: [] } },
    ]);
  });

  it('answers an empty page with the total and no X-Data-Updated-At when nothing was searched', async () => {
    const { page } = handler([], 0, undefined);
    expect(await page({ since: '7d' })).toStrictEqual({ items: [], total: 0, updatedAt: undefined });
  });
});

describe('ExportSearchTermsHandler: the CSV answer', () => {
  fixedClock();

  it('writes the header of the columns asked for, then the lines from storage; total and updatedAt from the repository', async () => {
    const repository = {
      newestEvent: jest.fn().mockResolvedValue('2026-04-02T10:00:00.000Z'),
      total: jest.fn().mockResolvedValue(2),
      csvLines: jest.fn().mockResolvedValue(Readable.from(['summer dress,4,2,1,true,category:dresses\r\n', 'red shoes,2,0,,false,\r\n'])),
    };
    const h = new ExportSearchTermsHandler(repository as unknown as SearchTermsRepository, immediateSlots(), analyticsConfig());
    const answer = await h.execute(new ExportSearchTermsQuery(termsCriteriaOf({ format: 'csv', hits: 'false', compare: 'previous' })));
    expect(answer.total).toBe(2);
    expect(answer.updatedAt).toBe('2026-04-02T10:00:00.000Z');
    expect(await text(answer.csv)).toBe(
      'search_phrase,count,previous_count,change,handled,handlers\r\n' +
        'summer dress,4,2,1,true,category:dresses\r\n' +
        'red shoes,2,0,,false,\r\n',
    );
    expect(repository.csvLines).toHaveBeenCalledWith(expect.objectContaining({ start: 0, limit: MAX_EXPORT_ROWS }), FIXED_NOW);
  });
});
