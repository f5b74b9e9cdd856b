import { Query } from '@nestjs/cqrs';
import type { AuthContext } from '@app/auth';
import { analyticsCriteria, type AnalyticsCriteria } from '../analytics/analytics-scope';
import { engagementTags, type TagsFilter } from '../analytics/tags-param';
import type { Interval } from '../analytics/window';
import type { SearchStatsDto, SearchStatsView } from './search-stats.dto';

export interface SearchStats {
  view: SearchStatsView;
  /** X-Data-Updated-At. */
  updatedAt?: string;
}

/**
 * The statements of GET /search-stats beyond the searches per bucket (and the engagement hours with `engagement`).
 * A caller that shows only some figures (Algolia's routes, docs/algolia.md) leaves the others out; a figure left out
 * reads 0 (users, distinct terms, unattributed interactions, the clicks of each position) or empty (languages), so it
 * must not show it. The parts are part of the answer's cache key.
 */
export interface StatsParts {
  users: boolean;
  distinctTerms: boolean;
  languages: boolean;
  /** With engagement: the clicks and conversions without a known search. */
  unattributed: boolean;
  /** With engagement: the clicks per position over the window. */
  positions: boolean;
}

/** Every part: the native answer. */
export const ALL_STATS_PARTS: Readonly<StatsParts> = Object.freeze({
  users: true,
  distinctTerms: true,
  languages: true,
  unattributed: true,
  positions: true,
});

/** Totals and series over the window. */
export class SearchStatsQuery extends Query<SearchStats> {
  /** The query of a GET /search-stats request with this validated query string. */
  static of(auth: AuthContext, q: SearchStatsDto): SearchStatsQuery {
    const engagement = q.engagement === 'true';
    return new SearchStatsQuery(
      analyticsCriteria(auth, q),
      q.interval,
      q.compare === 'previous',
      engagement,
      engagementTags(q.tags, engagement),
    );
  }

  constructor(
    readonly criteria: AnalyticsCriteria,
    readonly interval: Interval | undefined,
    readonly compare: boolean,
    readonly engagement = false,
    /** Only the searches carrying these tags. */
    readonly tags?: TagsFilter,
    readonly parts: Readonly<StatsParts> = ALL_STATS_PARTS,
  ) {
    super();
  }
}
