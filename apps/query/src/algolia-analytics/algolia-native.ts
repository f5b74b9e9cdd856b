import { Injectable } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { AppConfig } from '@app/config';
import type { ClickedObjectView } from '../clicked-objects/clicked-objects.dto';
import { ClickedObjectsQuery } from '../clicked-objects/clicked-objects.query';
import type { SearchBreakdownEntryView } from '../search-breakdown/search-breakdown.dto';
import { SearchBreakdownQuery, type SearchBreakdownCriteria } from '../search-breakdown/search-breakdown.query';
import type { SearchStatsView } from '../search-stats/search-stats.dto';
import { SearchStatsQuery } from '../search-stats/search-stats.query';
import type { SearchTermView } from '../search-terms/search-terms.dto';
import { SearchTermsQuery, type SearchTermsCriteria } from '../search-terms/search-terms.query';
import type { AlgoliaScope } from './algolia-scope';

/** What a native query leaves to the adapter: the list's own options. */
type TermsOptions = Pick<SearchTermsCriteria, 'zeroHits' | 'allHits' | 'withFilters' | 'engagement' | 'sort' | 'order'>;

/**
 * The native answers Algolia's routes adapt (docs/algolia.md, "One counting path"): the same queries, handlers and
 * caches as GET /search-stats, /search-terms, /search-breakdown and /clicked-objects, with the request's index,
 * window and page. No figure is counted here.
 */
@Injectable()
export class AlgoliaNative {
  constructor(
    private readonly queries: QueryBus,
    private readonly config: AppConfig,
  ) {}

  /** GET /search-stats per day of the window (with the click and conversion figures when `engagement`). */
  async stats({ req, criteria }: AlgoliaScope, engagement: boolean): Promise<{ view: SearchStatsView; updatedAt?: string }> {
    return this.queries.execute(new SearchStatsQuery(criteria, 'day', false, engagement, req.tags));
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

  /**
   * The time of the newest counted search of the scope's instance (X-Data-Updated-At of GET /search-stats): in the
   * last day, else in the whole retention; undefined when there is none.
   */
  async newestSearch({ criteria }: AlgoliaScope): Promise<string | undefined> {
    for (const since of ['1d', `${this.config.retentionDays}d`]) {
      const { updatedAt } = await this.queries.execute(new SearchStatsQuery({ ...criteria, window: { since } }, 'day', false));
      if (updatedAt !== undefined) {
        return updatedAt;
      }
    }
    return undefined;
  }
}
