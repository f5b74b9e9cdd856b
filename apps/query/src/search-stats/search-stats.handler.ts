import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { AppConfig } from '@app/config';
import { filterOf } from '../analytics/analytics-scope';
import { AnswerCache } from '../analytics/answer-cache';
import {
  bucketBounds,
  comparedWindow,
  defaultInterval,
  foldIntoBuckets,
  isoInZone,
  resolveWindow,
  newestIso,
  type HourRange,
} from '../analytics/window';
import type { SearchTotalsView } from './search-stats.dto';
import { SearchStatsRepository, type TotalsHour } from './search-stats.repository';
import { SearchStatsQuery, type SearchStats } from './search-stats.query';

const rate = (zero: number, all: number) => (all === 0 ? 0 : zero / all);

function totals(hours: readonly TotalsHour[], distinctTerms: number): SearchTotalsView {
  const searches = hours.reduce((sum, h) => sum + h.searches, 0);
  const zero = hours.reduce((sum, h) => sum + h.zero_hit_searches, 0);
  return { searches, zero_hit_searches: zero, zero_hit_rate: rate(zero, searches), distinct_terms: distinctTerms };
}

const within = (hours: readonly TotalsHour[], r: HourRange) => hours.filter((h) => h.hour >= r.from && h.hour < r.to);

/** GET /search-stats: totals, series per hour or day in tz, and the previous window's totals; cached (AnswerCache). */
@QueryHandler(SearchStatsQuery)
export class SearchStatsHandler implements IQueryHandler<SearchStatsQuery> {
  constructor(
    private readonly repository: SearchStatsRepository,
    private readonly cache: AnswerCache,
    private readonly config: AppConfig,
  ) {}

  execute({ criteria: c, interval: asked, compare }: SearchStatsQuery): Promise<SearchStats> {
    const now = Date.now();
    const window = resolveWindow(c.window, now, this.config.retentionDays);
    const previous = compare ? comparedWindow(window, now, this.config.retentionDays) : undefined;
    const interval = asked ?? defaultInterval(window);
    const bounds = bucketBounds(window, interval);
    const f = filterOf(c);
    return this.cache.get(f, ['stats', f, window, interval, compare], async () => {
      // Side by side on a server; one after the other in the slot's lane of the embedded engine.
      const [hours, distinct, languages] = await Promise.all([
        this.repository.hours(f, { from: previous?.from ?? window.from, to: window.to }),
        this.repository.distinctTerms(f, window, previous),
        this.repository.languages(f, window),
      ]);
      const current = within(hours, window);
      const series = foldIntoBuckets(bounds, current, ['searches', 'zero_hit_searches']);
      return {
        view: {
          from: isoInZone(window.from, window.tz),
          to: isoInZone(window.to, window.tz),
          interval,
          totals: totals(current, distinct.current),
          series: series.map((b) => ({
            start: isoInZone(b.start, window.tz),
            searches: b.searches,
            zero_hit_searches: b.zero_hit_searches,
            zero_hit_rate: rate(b.zero_hit_searches, b.searches),
          })),
          ...(previous ? { previous: totals(within(hours, previous), distinct.previous) } : {}),
          languages,
        },
        updatedAt: newestIso(current.map((h) => h.newest)),
      };
    });
  }
}
