import { ApiTags } from '@nestjs/swagger';
import { Controller, Get, Query } from '@nestjs/common';
import { Auth, type AuthContext } from '@app/auth';
import type { EngagementFields } from '../analytics/engagement';
import type { SearchTermView } from '../search-terms/search-terms.dto';
import { clickFigures, dateOf, revenueFigures, shareOrZero, type PositionClicks } from './algolia-answers';
import { AlgoliaNative } from './algolia-native';
import { ALGOLIA_TAG, AlgoliaRoute } from './algolia-route';
import { LIST, TOP_SEARCHES, WINDOW } from './algolia-request';
import { AlgoliaScopes } from './algolia-scope';

/** A native list entry with the engagement figures (engagement=true or an order by them). */
type EngagedTerm = SearchTermView & EngagementFields & { positions?: PositionClicks[] };

type Params = Record<string, unknown>;

const ORDER = {
  searchCount: 'count',
  clickThroughRate: 'click_through_rate',
  conversionRate: 'conversion_rate',
  averageClickPosition: 'average_click_position',
} as const;

/** Algolia's Analytics API, the searches and their users (docs/algolia.md): each route one native answer, renamed. */
@ApiTags(ALGOLIA_TAG)
@Controller('2')
export class AlgoliaSearchesController {
  constructor(
    private readonly scopes: AlgoliaScopes,
    private readonly native: AlgoliaNative,
  ) {}

  @Get('searches')
  @AlgoliaRoute('getTopSearches', 'The most searched phrases (GET /search-terms?hits=all)', TOP_SEARCHES)
  async topSearches(@Auth() auth: AuthContext, @Query() query: Params) {
    const scope = await this.scopes.of(auth, query, TOP_SEARCHES);
    const { req } = scope;
    const items = (await this.native.terms(scope, {
      zeroHits: false,
      allHits: true,
      withFilters: false,
      engagement: req.clickAnalytics,
      sort: ORDER[req.orderBy],
      order: req.direction,
    })) as EngagedTerm[];
    return {
      searches: items.map((t) => ({
        search: t.search_phrase,
        count: t.count,
        nbHits: t.last_hits ?? 0,
        ...(req.clickAnalytics ? clickFigures(t, t.positions) : {}),
        ...(req.revenueAnalytics ? revenueFigures(t) : {}),
      })),
    };
  }

  @Get('searches/count')
  @AlgoliaRoute('getSearchesCount', 'Searches per day (GET /search-stats)', WINDOW)
  async searchesCount(@Auth() auth: AuthContext, @Query() query: Params) {
    const { view } = await this.native.stats(await this.scopes.of(auth, query, WINDOW), 'searches');
    return { count: view.totals.searches, dates: view.series.map((b) => ({ date: dateOf(b.start), count: b.searches })) };
  }

  @Get('searches/noResults')
  @AlgoliaRoute('getSearchesNoResults', 'The phrases searched without results (GET /search-terms?hits=false&filters=true)', LIST)
  async noResults(@Auth() auth: AuthContext, @Query() query: Params) {
    const items = await this.native.terms(await this.scopes.of(auth, query, LIST), {
      zeroHits: true,
      allHits: false,
      withFilters: true,
      engagement: false,
      sort: 'count',
      order: 'desc',
    });
    return { searches: items.map((t) => ({ search: t.search_phrase, count: t.count, withFilterCount: t.with_filters ?? 0 })) };
  }

  @Get('searches/noClicks')
  @AlgoliaRoute('getSearchesNoClicks', 'The phrases whose tracked searches got no click (GET /search-terms?sort=no_clicks)', LIST)
  async noClicks(@Auth() auth: AuthContext, @Query() query: Params) {
    const items = (await this.native.terms(await this.scopes.of(auth, query, LIST, true), {
      zeroHits: false,
      allHits: false,
      withFilters: false,
      engagement: true,
      sort: 'no_clicks',
      order: 'desc',
    })) as EngagedTerm[];
    // Most searches without a click first, so the phrases with none left are the list's tail: left out.
    return {
      searches: items
        .map((t) => ({ search: t.search_phrase, count: t.tracked_searches - t.clicked_searches, nbHits: t.last_hits ?? 0 }))
        .filter((s) => s.count > 0),
    };
  }

  @Get('searches/noResultRate')
  @AlgoliaRoute('getNoResultsRate', 'The share of searches without results, per day (GET /search-stats)', WINDOW)
  async noResultRate(@Auth() auth: AuthContext, @Query() query: Params) {
    const { view } = await this.native.stats(await this.scopes.of(auth, query, WINDOW), 'searches');
    const rate = (b: { searches: number; zero_hit_searches: number; zero_hit_rate: number }) => ({
      rate: b.zero_hit_rate,
      count: b.searches,
      noResultCount: b.zero_hit_searches,
    });
    return { ...rate(view.totals), dates: view.series.map((b) => ({ date: dateOf(b.start), ...rate(b) })) };
  }

  @Get('searches/noClickRate')
  @AlgoliaRoute('getNoClickRate', 'The share of tracked searches without a click, per day (GET /search-stats?engagement=true)', WINDOW)
  async noClickRate(@Auth() auth: AuthContext, @Query() query: Params) {
    const { view } = await this.native.stats(await this.scopes.of(auth, query, WINDOW, true), 'engagement');
    const rate = (e: EngagementFields) => {
      const noClickCount = e.tracked_searches - e.clicked_searches;
      return { rate: shareOrZero(noClickCount, e.tracked_searches), count: e.tracked_searches, noClickCount };
    };
    const engaged = (b: object) => b as EngagementFields;
    return { ...rate(engaged(view.totals)), dates: view.series.map((b) => ({ date: dateOf(b.start), ...rate(engaged(b)) })) };
  }

  @Get('users/count')
  @AlgoliaRoute('getUsersCount', 'Users per day: user tokens, else sessions (GET /search-stats)', WINDOW)
  async usersCount(@Auth() auth: AuthContext, @Query() query: Params) {
    const { view } = await this.native.stats(await this.scopes.of(auth, query, WINDOW), 'users');
    return { count: view.totals.users, dates: view.series.map((b) => ({ date: dateOf(b.start), count: b.users })) };
  }
}
