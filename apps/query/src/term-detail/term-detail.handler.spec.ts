import { DomainError } from '@app/errors';
import { analyticsConfig, computingCache, detailQueryOf, fixedClock } from '../../../../test/support/analytics-fakes';
import { TermDetailHandler } from './term-detail.handler';
import type { TermDetailRepository, TermHour } from './term-detail.repository';

const at = (iso: string) => Date.parse(iso);
const ID = '97a12b91792dfc29b861d7fdd3c9dc09';
const FILTERS = [{ attribute: 'brand', operator: ':', value: 'Acme', searches: 2, zero_hit_searches: 1 }];
const hour = (iso: string, count: number, zero: number, newest = at(iso) + 60_000): TermHour => ({
  phrase: 'summer dress',
  hour: at(iso),
  count,
  zero_hit_count: zero,
  newest,
});

describe('TermDetailHandler: repository rows to the answer', () => {
  // now: 2026-04-02T10:20:00Z (FIXED_NOW).
  fixedClock();

  function detail(
    hours: TermHour[],
    handlers: Array<[string, string]> = [],
    variants = [{ phrase: 'Summer Dress', count: 3 }],
    unhandled: string[] = [],
  ) {
    const repository = {
      hours: jest.fn().mockResolvedValue(hours),
      variants: jest.fn().mockResolvedValue(variants),
      handlers: jest.fn().mockResolvedValue({ handlers, unhandled }),
      filters: jest.fn().mockResolvedValue(FILTERS),
    };
    const handler = new TermDetailHandler(repository as unknown as TermDetailRepository, computingCache(), analyticsConfig());
    const get = (query: Record<string, string>) => handler.execute(detailQueryOf(ID, query));
    return { repository, get };
  }

  it('answers the term: id, phrase, counts, every bucket of the window, spellings and status, and its newest event', async () => {
    const variants = [
      { phrase: 'Summer Dress', count: 4 },
      { phrase: 'summer  dress', count: 1 },
    ];
    const { repository, get } = detail(
      [hour('2026-04-01T12:00:00Z', 2, 1), hour('2026-04-02T09:00:00Z', 3, 0, at('2026-04-02T09:59:59.999Z'))],
      [
        ['category', 'dresses'],
        ['productfeed', 'p-1'],
      ],
      variants,
    );
    const { view, updatedAt } = await get({});
    expect({ ...view, series: undefined }).toStrictEqual({
      id: ID,
      search_phrase: 'summer dress',
      count: 5,
      zero_hit_count: 1,
      series: undefined,
      variants,
      status: {
        handled: true,
        handlers: [
          { type: 'category', id: 'dresses' },
          { type: 'productfeed', id: 'p-1' },
        ],
        unhandled_languages: [],
      },
      filters: FILTERS,
    });
    expect(repository.filters).toHaveBeenCalledWith(expect.anything(), ID, 10, undefined);
    expect(view.series).toHaveLength(25);
    expect(view.series[0]).toStrictEqual({ start: '2026-04-01T10:00:00Z', count: 0, zero_hit_count: 0 });
    expect(view.series[2]).toStrictEqual({ start: '2026-04-01T12:00:00Z', count: 2, zero_hit_count: 1 });
    expect(view.series[23]).toStrictEqual({ start: '2026-04-02T09:00:00Z', count: 3, zero_hit_count: 0 });
    expect(updatedAt).toBe('2026-04-02T09:59:59.999Z');
    // At most 10 spellings; the handlers of the phrase the hours name.
    expect(repository.variants).toHaveBeenCalledWith(expect.objectContaining({ customer: 'acme', instance: 'shop' }), ID, 10);
    expect(repository.handlers).toHaveBeenCalledWith(expect.objectContaining({ customer: 'acme', instance: 'shop' }), 'summer dress');
  });

  it('says not handled while a language it found nothing in has no entity, handlers or not', async () => {
    const { get } = detail([hour('2026-04-01T12:00:00Z', 2, 1)], [['synonym', 'jacke']], undefined, ['de-ch']);
    const { view } = await get({});
    expect(view.status).toStrictEqual({ handled: false, handlers: [{ type: 'synonym', id: 'jacke' }], unhandled_languages: ['de-ch'] });
  });

  it('says not handled, with no handlers, when no entity handles the phrase; days in tz with their offsets', async () => {
    const { get } = detail([hour('2026-03-28T23:00:00Z', 1, 1)]);
    const { view } = await get({ from: '2026-03-28', to: '2026-03-31', tz: 'Europe/Berlin' });
    expect(view.status).toStrictEqual({ handled: false, handlers: [], unhandled_languages: [] });
    expect(view.series).toStrictEqual([
      { start: '2026-03-28T00:00:00+01:00', count: 0, zero_hit_count: 0 },
      { start: '2026-03-29T00:00:00+01:00', count: 1, zero_hit_count: 1 },
      { start: '2026-03-30T00:00:00+02:00', count: 0, zero_hit_count: 0 },
    ]);
  });

  it('is a 404 naming the id when the term has no search in the window, asking for nothing more', async () => {
    const { repository, get } = detail([]);
    await expect(get({ since: '7d' })).rejects.toThrow(new DomainError('not-found', `No search of the term ${ID} in the window`));
    await expect(get({ since: '7d' })).rejects.toMatchObject({ code: 'not-found' });
    expect(repository.variants).not.toHaveBeenCalled();
    expect(repository.handlers).not.toHaveBeenCalled();
  });
});
