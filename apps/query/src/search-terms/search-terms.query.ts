import { Query } from '@nestjs/cqrs';
import type { SearchTermView } from './search-terms.dto';

export interface SearchTermsCriteria {
  customer: string;
  instance: string;
  sinceDays: number;
  language?: string;
  includeBots: boolean;
  /** hits=false: the zero-result terms, with their handled status. */
  zeroHits: boolean;
  start: number;
  end: number;
}

export class SearchTermsQuery extends Query<{ items: SearchTermView[]; total: number }> {
  constructor(readonly criteria: SearchTermsCriteria) {
    super();
  }
}
