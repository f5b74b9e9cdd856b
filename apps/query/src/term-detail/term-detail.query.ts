import { Query } from '@nestjs/cqrs';
import type { AuthContext } from '@app/auth';
import { analyticsCriteria, type AnalyticsCriteria } from '../analytics/analytics-scope';
import { engagementTags, type TagsFilter } from '../analytics/tags-param';
import type { Interval } from '../analytics/window';
import type { SearchTermDetailView, TermDetailDto } from './term-detail.dto';

export interface TermDetail {
  view: SearchTermDetailView;
  /** X-Data-Updated-At. */
  updatedAt?: string;
}

/** One term over the window, by its list id. */
export class TermDetailQuery extends Query<TermDetail> {
  /** The query of a GET /search-terms/{id} request with this validated query string. */
  static of(id: string, auth: AuthContext, q: TermDetailDto): TermDetailQuery {
    const engagement = q.engagement === 'true';
    return new TermDetailQuery(id, analyticsCriteria(auth, q), q.interval, engagement, engagementTags(q.tags, engagement));
  }

  constructor(
    readonly id: string,
    readonly criteria: AnalyticsCriteria,
    readonly interval?: Interval,
    readonly engagement = false,
    /** Only the searches carrying these tags (counts, series and filters). */
    readonly tags?: TagsFilter,
  ) {
    super();
  }
}
