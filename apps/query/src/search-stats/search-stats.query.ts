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
  ) {
    super();
  }
}
