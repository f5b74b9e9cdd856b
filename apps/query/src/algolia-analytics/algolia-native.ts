import { Injectable } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { ClickedObjectView } from '../clicked-objects/clicked-objects.dto';
import { ClickedObjectsQuery } from '../clicked-objects/clicked-objects.query';
import type { SearchBreakdownEntryView } from '../search-breakdown/search-breakdown.dto';
import { SearchBreakdownQuery, type SearchBreakdownCriteria } from '../search-breakdown/search-breakdown.query';
import type { SearchStatsView } from '../search-stats/search-stats.dto';
import { NewestSearchQuery } from '../search-stats/newest-search.query';
import { SearchStatsQuery, type StatsParts } from '../search-stats/search-stats.query';
import type { SearchTermView } from '../search-terms/search-terms.dto';
import { SearchTermsQuery, type SearchTermsCriteria } from '../search-terms/search-terms.query';
import type { AlgoliaScope } from './algolia-scope';

/** What a daily route shows beside the searches per day. */
export type StatsShown = 'searches' | 'users' | 'engagement' | 'positions';

const NO_PARTS: StatsParts = { users: false, distinctTerms: false, languages: false, unattributed: false, positions: false };

/** What a native query leaves to the adapter: the list's own options. */
type TermsOptions = Pick<SearchTermsCriteria, 'zeroHits' | 'allHits' | 'withFilters' | 'engagement' | 'sort' | 'order'>;

/**
 * The native answers Algolia's routes adapt (docs/algolia.md, "One counting path"): the same queries, handlers and
 * caches as GET /search-stats, /search-terms, /search-breakdown and /clicked-objects, with the request's index,
 * window and page. No figure is counted here.
 */
@Injectable()
export class AlgoliaNative {
  constructor(private readonly queries: QueryBus) {}

  /**
   * GET /search-stats per day of the window, with only the statements of the figures the route shows (StatsParts):
   * the searches per day, and the users, the click and conversion figures, or those and the clicks per position.
   */
  async stats({ req, criteria }: AlgoliaScope, shows: StatsShown): Promise<{ view: SearchStatsView; updatedAt?: string }> {
    const engagement = shows === 'engagement' || shows === 'positions';
    const parts = { ...NO_PARTS, users: shows === 'users', positions: shows === 'positions' };
    return this.queries.execute(new SearchStatsQuery(criteria, 'day', false, engagement, req.tags, parts));
  }

  /** A page of GET /search-terms. */
  async terms({ req, criteria }: AlgoliaScope, options: TermsOptions): Promise<SearchTermView[]> {
    const page = await this.queries.execute(
      new SearchTermsQuery({ ...criteria, ...options, tags: req.tags, compare: false, start: req.offset, end: req.offset + req.limit }),
    );
    return page.items;
  }

  /** A page of GET /search-breakdown, most searched first. */
  async breakdown(
    { req, criteria }: AlgoliaScope,
    options: Pick<SearchBreakdownCriteria, 'by' | 'attribute' | 'hits'>,
  ): Promise<SearchBreakdownEntryView[]> {
    const page = await this.queries.execute(
      new SearchBreakdownQuery({
        ...criteria,
        ...options,
        phrase: req.search,
        tags: req.tags,
        sort: 'searches',
        order: 'desc',
        start: req.offset,
        end: req.offset + req.limit,
      }),
    );
    return page.items;
  }

  /** A page of GET /clicked-objects, most clicked first. */
  async clickedObjects({ req, criteria }: AlgoliaScope): Promise<ClickedObjectView[]> {
    const page = await this.queries.execute(
      new ClickedObjectsQuery({ ...criteria, phrase: req.search, start: req.offset, end: req.offset + req.limit }),
    );
    return page.items;
  }

  /** The time of the newest counted search of the scope's index in the retention; undefined when there is none. */
  newestSearch({ criteria }: AlgoliaScope): Promise<string | undefined> {
    return this.queries.execute(new NewestSearchQuery(criteria));
  }
}
