import { Query } from '@nestjs/cqrs';
import type { AnalyticsCriteria } from '../analytics/analytics-scope';
import type { Interval } from '../analytics/window';
import type { SearchTermDetailView } from './term-detail.dto';

export interface TermDetail {
  view: SearchTermDetailView;
  /** X-Data-Updated-At. */
  updatedAt?: string;
}

/** One term over the window, by its list id. */
export class TermDetailQuery extends Query<TermDetail> {
  constructor(
    readonly id: string,
    readonly criteria: AnalyticsCriteria,
    readonly interval?: Interval,
  ) {
    super();
  }
}
