import { Query } from '@nestjs/cqrs';
import type { AnalyticsCriteria } from '../analytics/analytics-scope';
import type { Interval } from '../analytics/window';
import type { SearchStatsView } from './search-stats.dto';

export interface SearchStats {
  view: SearchStatsView;
  /** X-Data-Updated-At. */
  updatedAt?: string;
}

/** Totals and series over the window. */
export class SearchStatsQuery extends Query<SearchStats> {
  constructor(
    readonly criteria: AnalyticsCriteria,
    readonly interval: Interval | undefined,
    readonly compare: boolean,
  ) {
    super();
  }
}
