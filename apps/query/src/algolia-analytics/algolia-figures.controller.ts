import { ApiTags } from '@nestjs/swagger';
import { Controller, Get, Param, Query } from '@nestjs/common';
import { Auth, type AuthContext } from '@app/auth';
import { DomainError } from '@app/errors';
import type { EngagementFields } from '../analytics/engagement';
import type { SearchStatsView } from '../search-stats/search-stats.dto';
import { clickPositions, currencies, dateOf, type PositionClicks } from './algolia-answers';
import { AlgoliaNative } from './algolia-native';
import { ALGOLIA_TAG, AlgoliaRoute } from './algolia-route';
import { INDEX_ONLY, LIST, PHRASE_LIST, TOP_HITS, WINDOW } from './algolia-request';
import { AlgoliaScopes } from './algolia-scope';

type Params = Record<string, unknown>;
type Engaged = EngagementFields & { positions?: PositionClicks[] };

/** A native daily series with the engagement figures: the totals and each day, mapped alike. */
function daily<T extends object>(view: SearchStatsView, figures: (e: Engaged) => T) {
  return {
    ...figures(view.totals as unknown as Engaged),
    dates: view.series.map((b) => ({ ...figures(b as unknown as Engaged), date: dateOf(b.start) })),
  };
}

/**
 * Algolia's Analytics API, the filters, countries, clicked objects, click and conversion figures and the status
 * (docs/algolia.md): each route one native answer, renamed. `/2/filters/noResults` comes before
 * `/2/filters/{attribute}`, so an attribute named `noResults` cannot be read there.
 */
@ApiTags(ALGOLIA_TAG)
@Controller('2')
export class AlgoliaFiguresController {
  constructor(
    private readonly scopes: AlgoliaScopes,
    private readonly native: AlgoliaNative,
  ) {}

  @Get('filters')
  @AlgoliaRoute('getTopFilterAttributes', 'The most used filter attributes (GET /search-breakdown?by=filter_attribute)', PHRASE_LIST)
  async filters(@Auth() auth: AuthContext, @Query() query: Params) {
    const items = await this.native.breakdown(await this.scopes.of(auth, query, PHRASE_LIST), { by: 'filter_attribute' });
    return { attributes: items.map((e) => ({ attribute: e.attribute as string, count: e.searches })) };
  }

  @Get('filters/noResults')
  @AlgoliaRoute(
    'getTopFiltersNoResults',
    'The filter sets of searches without results (GET /search-breakdown?by=filter_set&hits=false)',
    PHRASE_LIST,
  )
  async filtersNoResults(@Auth() auth: AuthContext, @Query() query: Params) {
    const items = await this.native.breakdown(await this.scopes.of(auth, query, PHRASE_LIST), { by: 'filter_set', hits: false });
    return { values: items.map((e) => ({ count: e.searches, values: e.filters ?? [] })) };
  }

  @Get('filters/:attribute')
  @AlgoliaRoute('getTopFilterForAttribute', "An attribute's most used filter values (GET /search-breakdown?by=filter_value)", PHRASE_LIST)
  async filterValues(@Auth() auth: AuthContext, @Param('attribute') attribute: string, @Query() query: Params) {
    const scope = await this.scopes.of(auth, query, PHRASE_LIST);
    if (attribute.trim() === '' || attribute.length > 64) {
      throw new DomainError('invalid', 'attribute must be 1 to 64 characters');
    }
    const items = await this.native.breakdown(scope, { by: 'filter_value', attribute: attribute.trim() });
    return {
      values: items.map((e) => ({
        attribute: e.attribute as string,
        operator: e.operator as string,
        value: e.value as string,
        count: e.searches,
      })),
    };
  }

  @Get('countries')
  @AlgoliaRoute('getTopCountries', 'The countries searched from (GET /search-breakdown?by=country)', LIST)
  async countries(@Auth() auth: AuthContext, @Query() query: Params) {
    const items = await this.native.breakdown(await this.scopes.of(auth, query, LIST), { by: 'country' });
    return { countries: items.map((e) => ({ country: e.country as string, count: e.searches })) };
  }

  @Get('hits')
  @AlgoliaRoute('getTopHits', 'The most clicked objects (GET /clicked-objects)', TOP_HITS)
  async hits(@Auth() auth: AuthContext, @Query() query: Params) {
    const scope = await this.scopes.of(auth, query, TOP_HITS, true);
    const { req } = scope;
    const items = await this.native.clickedObjects(scope);
    return {
      hits: items.map((o) => ({
        hit: o.object_id,
        count: o.clicks,
        ...(req.clickAnalytics
          ? {
              clickThroughRate: null,
              conversionRate: null,
              trackedHitCount: o.clicked_searches,
              clickCount: o.clicks,
              conversionCount: o.conversions,
            }
          : {}),
        ...(req.revenueAnalytics
          ? {
              addToCartRate: null,
              addToCartCount: o.added_to_cart_searches,
              purchaseRate: null,
              purchaseCount: o.purchased_searches,
              currencies: currencies(o.purchase_revenue),
            }
          : {}),
      })),
    };
  }

  @Get('clicks/averageClickPosition')
  @AlgoliaRoute('getAverageClickPosition', 'The average position clicked, per day (GET /search-stats?engagement=true)', WINDOW)
  async averageClickPosition(@Auth() auth: AuthContext, @Query() query: Params) {
    const { view } = await this.native.stats(await this.scopes.of(auth, query, WINDOW, true), 'engagement');
    return daily(view, (e) => ({ average: e.average_click_position, clickCount: e.clicks }));
  }

  @Get('clicks/positions')
  @AlgoliaRoute('getClickPositions', 'Clicks per position range (GET /search-stats?engagement=true)', WINDOW)
  async positions(@Auth() auth: AuthContext, @Query() query: Params) {
    const { view } = await this.native.stats(await this.scopes.of(auth, query, WINDOW, true), 'positions');
    return { positions: clickPositions((view.totals as unknown as Engaged).positions) };
  }

  @Get('clicks/clickThroughRate')
  @AlgoliaRoute('getClickThroughRate', 'The share of tracked searches with a click, per day (GET /search-stats?engagement=true)', WINDOW)
  async clickThroughRate(@Auth() auth: AuthContext, @Query() query: Params) {
    const { view } = await this.native.stats(await this.scopes.of(auth, query, WINDOW, true), 'engagement');
    return daily(view, (e) => ({ rate: e.click_through_rate, clickCount: e.clicks, trackedSearchCount: e.tracked_searches }));
  }

  @Get('conversions/conversionRate')
  @AlgoliaRoute('getConversionRate', 'The share of tracked searches with a conversion, per day (GET /search-stats?engagement=true)', WINDOW)
  async conversionRate(@Auth() auth: AuthContext, @Query() query: Params) {
    const { view } = await this.native.stats(await this.scopes.of(auth, query, WINDOW, true), 'engagement');
    return daily(view, (e) => ({ rate: e.conversion_rate, trackedSearchCount: e.tracked_searches, conversionCount: e.converted_searches }));
  }

  @Get('conversions/addToCartRate')
  @AlgoliaRoute(
    'getAddToCartRate',
    'The share of tracked searches with an add-to-cart, per day (GET /search-stats?engagement=true)',
    WINDOW,
  )
  async addToCartRate(@Auth() auth: AuthContext, @Query() query: Params) {
    const { view } = await this.native.stats(await this.scopes.of(auth, query, WINDOW, true), 'engagement');
    return daily(view, (e) => ({
      rate: e.add_to_cart_rate,
      trackedSearchCount: e.tracked_searches,
      addToCartCount: e.added_to_cart_searches,
    }));
  }

  @Get('conversions/purchaseRate')
  @AlgoliaRoute('getPurchaseRate', 'The share of tracked searches with a purchase, per day (GET /search-stats?engagement=true)', WINDOW)
  async purchaseRate(@Auth() auth: AuthContext, @Query() query: Params) {
    const { view } = await this.native.stats(await this.scopes.of(auth, query, WINDOW, true), 'engagement');
    return daily(view, (e) => ({ rate: e.purchase_rate, trackedSearchCount: e.tracked_searches, purchaseCount: e.purchased_searches }));
  }

  @Get('conversions/revenue')
  @AlgoliaRoute('getRevenue', 'Purchase revenue per currency, per day (GET /search-stats?engagement=true)', WINDOW)
  async revenue(@Auth() auth: AuthContext, @Query() query: Params) {
    const { view } = await this.native.stats(await this.scopes.of(auth, query, WINDOW, true), 'engagement');
    return daily(view, (e) => ({ currencies: currencies(e.purchase_revenue) }));
  }

  @Get('status')
  @AlgoliaRoute('getStatus', 'When the newest counted search of the index happened (X-Data-Updated-At of GET /search-stats)', INDEX_ONLY)
  async status(@Auth() auth: AuthContext, @Query() query: Params) {
    const scope = await this.scopes.of(auth, query, INDEX_ONLY);
    return { updatedAt: (await this.native.newestSearch(scope)) ?? null };
  }
}
