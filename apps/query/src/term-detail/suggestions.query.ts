import { Query } from '@nestjs/cqrs';
import type { AuthContext } from '@app/auth';
import { analyticsCriteria, type AnalyticsCriteria } from '../analytics/analytics-scope';
import type { AnalyticsFiltersDto } from '../analytics/analytics.dto';
import type { SuggestionsView } from './suggestions.dto';

/** The terms that found results and are close to a term of the list, by its id. */
export class SuggestionsQuery extends Query<SuggestionsView> {
  static of(id: string, auth: AuthContext, q: AnalyticsFiltersDto): SuggestionsQuery {
    return new SuggestionsQuery(id, analyticsCriteria(auth, q));
  }

  constructor(
    readonly id: string,
    readonly criteria: AnalyticsCriteria,
  ) {
    super();
  }
}
