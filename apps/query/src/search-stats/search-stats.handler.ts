import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { AppConfig } from '@app/config';
import { filterOf } from '../analytics/analytics-scope';
import { AnswerCache } from '../analytics/answer-cache';
import { engagementFields, foldCounts, positionsView, sumCounts, type EngagementCounts } from '../analytics/engagement';
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

function totals(hours: readonly TotalsHour[], distinctTerms: number, users: number): SearchTotalsView {
  const searches = hours.reduce((sum, h) => sum + h.searches, 0);
  const zero = hours.reduce((sum, h) => sum + h.zero_hit_searches, 0);
  return { searches, zero_hit_searches: zero, zero_hit_rate: rate(zero, searches), distinct_terms: distinctTerms, users };
}

const within = <H extends { hour: number }>(hours: readonly H[], r: HourRange) => hours.filter((h) => h.hour >= r.from && h.hour < r.to);

type EngagementHours = {
  searches: Array<{ hour: number; counts: EngagementCounts }>;
  unattributed: Array<{ hour: number; clicks: number; conversions: number }>;
};

/** The engagement fields of the totals of `r`, with the unattributed interactions of its hours. */
function engagementTotals(e: EngagementHours, r: HourRange) {
  const unattributed = within(e.unattributed, r);
  return {
    ...engagementFields(sumCounts(within(e.searches, r).map((h) => h.counts))),
    unattributed_clicks: unattributed.reduce((sum, h) => sum + h.clicks, 0),
    unattributed_conversions: unattributed.reduce((sum, h) => sum + h.conversions, 0),
  };
}

/** GET /search-stats: totals, series per hour or day in tz, and the previous window's totals; cached (AnswerCache). */
@QueryHandler(SearchStatsQuery)
export class SearchStatsHandler implements IQueryHandler<SearchStatsQuery> {
  constructor(
    private readonly repository: SearchStatsRepository,
    private readonly cache: AnswerCache,
    private readonly config: AppConfig,
  ) {}

  execute({ criteria: c, interval: asked, compare, engagement, tags, parts: p }: SearchStatsQuery): Promise<SearchStats> {
    const now = Date.now();
    const window = resolveWindow(c.window, now, this.config.retentionDays);
    const previous = compare ? comparedWindow(window, now, this.config.retentionDays) : undefined;
    const interval = asked ?? defaultInterval(window);
    const bounds = bucketBounds(window, interval);
    const f = filterOf(c);
    const range = { from: previous?.from ?? window.from, to: window.to };
    const key = ['stats', f, window, interval, compare, p, ...(engagement ? ['engagement'] : []), ...(tags ? [tags] : [])] as const;
    return this.cache.get(f, key, async () => {
      // Side by side on a server; one after the other in the slot's lane of the embedded engine.
      const starts = bounds.slice(0, -1);
      const [hours, distinct, languages, users, previousUsers, searches, unattributed, positions] = await Promise.all([
        this.repository.hours(f, range, tags),
        p.distinctTerms ? this.repository.distinctTerms(f, window, previous, tags) : { current: 0, previous: 0 },
        p.languages ? this.repository.languages(f, window, tags) : [],
        p.users ? this.repository.users(f, window, starts, tags) : { total: 0, buckets: starts.map(() => 0) },
        previous && p.users ? this.repository.users(f, previous, [], tags) : undefined,
        engagement ? this.repository.engagement.hours(f, range) : undefined,
        engagement ? (p.unattributed ? this.repository.engagement.unattributed(f, range) : []) : undefined,
        engagement && p.positions ? this.repository.engagement.positions(f, window) : undefined,
      ]);
      const e = searches && unattributed ? { searches, unattributed } : undefined;
      const current = within(hours, window);
      const series = foldIntoBuckets(bounds, current, ['searches', 'zero_hit_searches']);
      const engagementSeries = e ? foldCounts(bounds, within(e.searches, window)) : undefined;
      return {
        view: {
          from: isoInZone(window.from, window.tz),
          to: isoInZone(window.to, window.tz),
          interval,
          totals: {
            ...totals(current, distinct.current, users.total),
            ...(e ? { ...engagementTotals(e, window), positions: positionsView(positions?.get('')) } : {}),
          },
          series: series.map((b, i) => ({
            start: isoInZone(b.start, window.tz),
            searches: b.searches,
            zero_hit_searches: b.zero_hit_searches,
            zero_hit_rate: rate(b.zero_hit_searches, b.searches),
            users: users.buckets[i],
            ...(engagementSeries ? engagementFields(engagementSeries[i]) : {}),
          })),
          ...(previous
            ? {
                previous: {
                  ...totals(within(hours, previous), distinct.previous, previousUsers?.total ?? 0),
                  ...(e ? engagementTotals(e, previous) : {}),
                },
              }
            : {}),
          languages,
        },
        // With tags the rows keep no newest time: no X-Data-Updated-At.
        updatedAt: tags ? undefined : newestIso(current.map((h) => h.newest)),
      };
    });
  }
}
