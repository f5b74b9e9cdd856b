import { Query } from '@nestjs/cqrs';
import type { Readable } from 'node:stream';
import type { AuthContext } from '@app/auth';
import { analyticsCriteria, type AnalyticsCriteria } from '../analytics/analytics-scope';
import { engagementTags, type TagsFilter } from '../analytics/tags-param';
import { pageEnd } from '../common/csv';
import type { SearchTermsDto, SearchTermView } from './search-terms.dto';

/** The orders by the engagement figures (each implies engagement=true; docs/api/search-terms.md). */
export const ENGAGEMENT_SORTS = ['no_clicks', 'click_through_rate', 'conversion_rate', 'average_click_position'] as const;
export type TermsSort = 'count' | 'rising' | (typeof ENGAGEMENT_SORTS)[number];

/** Whether an order needs every phrase's engagement figures. */
export function byEngagement(sort: TermsSort): boolean {
  return (ENGAGEMENT_SORTS as readonly string[]).includes(sort);
}

export interface SearchTermsCriteria extends AnalyticsCriteria {
  /** hits=false: the zero-result terms, with their handled status. */
  zeroHits: boolean;
  /** hits=all: every search counts, whatever its hits. */
  allHits: boolean;
  /** filters=true (hits=false only): each term with with_filters. */
  withFilters: boolean;
  /** order=asc (not with sort=rising). */
  order?: 'desc' | 'asc';
  tags?: TagsFilter;
  /** compare=previous; sort=rising implies it. */
  compare: boolean;
  /** engagement=true; a sort by the figures implies it. */
  engagement: boolean;
  sort: TermsSort;
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
  const engagement = q.engagement === 'true' || byEngagement(q.sort);
  return {
    ...analyticsCriteria(auth, q),
    zeroHits: q.hits === 'false',
    allHits: q.hits === 'all',
    withFilters: q.filters === 'true',
    order: q.order,
    tags: engagementTags(q.tags, engagement),
    compare: q.compare === 'previous',
    engagement,
    sort: q.sort,
    handled: q.handled === undefined ? undefined : q.handled === 'true',
    start: q._start,
    end: pageEnd(q, csv, rawQuery),
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
