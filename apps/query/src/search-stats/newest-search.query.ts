import { Query } from '@nestjs/cqrs';
import type { AnalyticsFilter } from '../analytics/analytics-scope';

/**
 * The time of the newest counted search of a filter in the whole retention (ISO-8601), undefined when there is none:
 * what X-Data-Updated-At of GET /search-stats says, without the window's other figures.
 */
export class NewestSearchQuery extends Query<string | undefined> {
  constructor(readonly filter: AnalyticsFilter) {
    super();
  }
}
