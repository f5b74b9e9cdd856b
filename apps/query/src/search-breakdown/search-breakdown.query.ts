import { Query } from '@nestjs/cqrs';
import type { AuthContext } from '@app/auth';
import { DomainError } from '@app/errors';
import { analyticsCriteria, phraseParam, type AnalyticsCriteria } from '../analytics/analytics-scope';
import { pageEnd } from '../common/csv';
import { parseTags, type TagsFilter } from '../analytics/tags-param';
import type { Breakdown, SearchBreakdownDto, SearchBreakdownEntryView } from './search-breakdown.dto';

export interface SearchBreakdownCriteria extends AnalyticsCriteria {
  by: Breakdown;
  /** by=filter_value: the attribute whose values are listed. */
  attribute?: string;
  /** Only this normalised phrase's searches. */
  phrase?: string;
  /** true: searches with results; false: without; both when absent. */
  hits?: boolean;
  tags?: TagsFilter;
  sort: 'searches' | 'zero_hit_searches';
  order: 'desc' | 'asc';
  start: number;
  /** Exclusive; absent for every entry up to MAX_EXPORT_ROWS (CSV without _start/_end). */
  end?: number;
}

/** The criteria of a GET /search-breakdown request, or a 400 naming the parameter that does not fit `by`. */
export function searchBreakdownCriteria(auth: AuthContext, q: SearchBreakdownDto, csv: boolean, rawQuery: object): SearchBreakdownCriteria {
  if (q.by === 'filter_value' && q.attribute === undefined) {
    throw new DomainError('invalid', 'attribute is required with by=filter_value');
  }
  if (q.by !== 'filter_value' && q.attribute !== undefined) {
    throw new DomainError('invalid', 'attribute is only allowed with by=filter_value');
  }
  // Attributes are stored trimmed and never empty: an empty one would list nothing.
  if (q.attribute?.trim() === '') {
    throw new DomainError('invalid', 'attribute must be 1 to 64 characters');
  }
  return {
    ...analyticsCriteria(auth, q),
    by: q.by,
    attribute: q.attribute?.trim(),
    phrase: phraseParam(q.phrase),
    hits: q.hits === undefined ? undefined : q.hits === 'true',
    tags: parseTags(q.tags),
    sort: q.sort,
    order: q.order,
    start: q._start,
    end: pageEnd(q, csv, rawQuery),
  };
}

export interface SearchBreakdownPage {
  items: SearchBreakdownEntryView[];
  total: number;
}

/** One page of a breakdown (JSON or CSV: the handler answers the entries, the controller writes them). */
export class SearchBreakdownQuery extends Query<SearchBreakdownPage> {
  constructor(readonly criteria: SearchBreakdownCriteria) {
    super();
  }
}
