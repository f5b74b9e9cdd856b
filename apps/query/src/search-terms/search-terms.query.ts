import { Query } from '@nestjs/cqrs';
import type { Readable } from 'node:stream';
import type { AnalyticsCriteria } from '../analytics/analytics-scope';
import type { SearchTermView } from './search-terms.dto';

export interface SearchTermsCriteria extends AnalyticsCriteria {
  /** hits=false: the zero-result terms, with their handled status. */
  zeroHits: boolean;
  /** compare=previous; sort=rising implies it. */
  compare: boolean;
  sort: 'count' | 'rising';
  handled?: boolean;
  start: number;
  /** Exclusive; absent for every term up to MAX_EXPORT_ROWS (CSV without _start/_end). */
  end?: number;
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
