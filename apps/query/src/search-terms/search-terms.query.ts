import { Query } from '@nestjs/cqrs';
import type { Readable } from 'node:stream';
import type { AuthContext } from '@app/auth';
import { analyticsCriteria, type AnalyticsCriteria } from '../analytics/analytics-scope';
import type { SearchTermsDto, SearchTermView } from './search-terms.dto';

export interface SearchTermsCriteria extends AnalyticsCriteria {
  /** hits=false: the zero-result terms, with their handled status. */
  zeroHits: boolean;
  /** compare=previous; sort=rising implies it. */
  compare: boolean;
  /** engagement=true; sort=no_clicks implies it. */
  engagement: boolean;
  sort: 'count' | 'rising' | 'no_clicks';
  handled?: boolean;
  start: number;
  /** Exclusive; absent for every term up to MAX_EXPORT_ROWS (CSV without _start/_end). */
  end?: number;
}

/**
 * The criteria of a GET /search-terms request: its validated query, and whether it is paged (JSON always is; CSV only
 * when the raw query names `_start` or `_end`, else it holds every term up to MAX_EXPORT_ROWS).
 */
export function searchTermsCriteria(auth: AuthContext, q: SearchTermsDto, csv: boolean, rawQuery: object): SearchTermsCriteria {
  const paged = !csv || '_start' in rawQuery || '_end' in rawQuery;
  return {
    ...analyticsCriteria(auth, q),
    zeroHits: q.hits === 'false',
    compare: q.compare === 'previous',
    engagement: q.engagement === 'true' || q.sort === 'no_clicks',
    sort: q.sort,
    handled: q.handled === undefined ? undefined : q.handled === 'true',
    start: q._start,
    end: paged ? q._end : undefined,
  };
}

export interface SearchTermsPage {
  items: SearchTermView[];
  total: number;
  /** X-Data-Updated-At. */
  updatedAt?: string;
}

/** One page of the list. */
export class SearchTermsQuery extends Query<SearchTermsPage> {
  constructor(readonly criteria: SearchTermsCriteria) {
    super();
  }
}

export interface SearchTermsExport {
  total: number;
  updatedAt?: string;
  /** The whole CSV answer, read from storage as it is sent. */
  csv: Readable;
}

/** The list as CSV, streamed. */
export class ExportSearchTermsQuery extends Query<SearchTermsExport> {
  constructor(readonly criteria: SearchTermsCriteria) {
    super();
  }
}
