/**
 * Algolia's Analytics API in `npm run bench:scale` (issue 48): each `GET /2/...` route over the 30 days ending today
 * (whole UTC days), beside the native answer it adapts over the same window. Targets: p95 <= 1 s at 100M, and each
 * route's p50 within 1.2x of its native answer's.
 */

const DAY = 86_400_000;
const dateOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const today = Math.floor(Date.now() / DAY) * DAY;
/** The window: the 30 days ending today, as Algolia's startDate and endDate and as the native from and to. */
const ALGOLIA_WINDOW = `index=live&startDate=${dateOf(today - 29 * DAY)}&endDate=${dateOf(today)}`;
const NATIVE_WINDOW = `from=${dateOf(today - 29 * DAY)}&to=${dateOf(today + DAY)}&tz=UTC`;

export interface ScaleAnswer {
  key: string;
  label: string;
  path: (top: { id: string; search_phrase: string }) => string;
  days: number;
  rollup: boolean;
  csv?: boolean;
  /** A reference for another answer's target, with no target of its own. */
  reference?: boolean;
}

/** The native answers the routes adapt, over the same window (several routes share one). */
const NATIVE = {
  'native-terms-all': ['native search-terms hits=all 30d', '/search-terms?hits=all'],
  'native-terms-engagement': ['native search-terms hits=all engagement 30d', '/search-terms?hits=all&engagement=true'],
  'native-terms-ctr': ['native search-terms hits=all sort=click_through_rate 30d', '/search-terms?hits=all&sort=click_through_rate'],
  'native-no-results': ['native zero-result terms filters=true 30d', '/search-terms?hits=false&filters=true'],
  'native-no-clicks': ['native sort=no_clicks 30d', '/search-terms?sort=no_clicks'],
  'native-stats': ['native search-stats per day 30d', '/search-stats?interval=day'],
  'native-stats-engagement': ['native search-stats engagement per day 30d', '/search-stats?interval=day&engagement=true'],
  'native-objects': ['native clicked-objects 30d', '/clicked-objects?'],
  'native-attributes': ['native breakdown filter attributes 30d', '/search-breakdown?by=filter_attribute'],
  'native-sets': ['native breakdown zero-result filter sets 30d', '/search-breakdown?by=filter_set&hits=false'],
  'native-values': ['native breakdown brand values 30d', '/search-breakdown?by=filter_value&attribute=brand'],
  'native-countries': ['native breakdown countries 30d', '/search-breakdown?by=country'],
} as const;

type NativeKey = keyof typeof NATIVE;

/** Each route (with its parameters beyond the window), with the native answer it adapts. */
const ROUTES: Array<[route: string, native: NativeKey]> = [
  ['/2/searches', 'native-terms-all'],
  ['/2/searches?clickAnalytics=true', 'native-terms-engagement'],
  ['/2/searches?revenueAnalytics=true', 'native-terms-engagement'],
  ['/2/searches?clickAnalytics=true&orderBy=clickThroughRate', 'native-terms-ctr'],
  ['/2/searches/count', 'native-stats'],
  ['/2/searches/noResults', 'native-no-results'],
  ['/2/searches/noClicks', 'native-no-clicks'],
  ['/2/searches/noResultRate', 'native-stats'],
  ['/2/searches/noClickRate', 'native-stats-engagement'],
  ['/2/hits', 'native-objects'],
  ['/2/hits?clickAnalytics=true', 'native-objects'],
  ['/2/users/count', 'native-stats'],
  ['/2/filters', 'native-attributes'],
  ['/2/filters/noResults', 'native-sets'],
  ['/2/filters/brand', 'native-values'],
  ['/2/countries', 'native-countries'],
  ['/2/clicks/averageClickPosition', 'native-stats-engagement'],
  ['/2/clicks/positions', 'native-stats-engagement'],
  ['/2/clicks/clickThroughRate', 'native-stats-engagement'],
  ['/2/conversions/conversionRate', 'native-stats-engagement'],
  ['/2/conversions/addToCartRate', 'native-stats-engagement'],
  ['/2/conversions/purchaseRate', 'native-stats-engagement'],
  ['/2/conversions/revenue', 'native-stats-engagement'],
];

const routeKey = (route: string) => `algolia${route.slice(2).replace(/[/?&=]/g, '-')}`;
/** The route's URL over the window: its own parameters first. */
const routeUrl = (route: string, window: string) => `${route}${route.includes('?') ? '&' : '?'}${window}`;

/** The answers measured: the routes (keys `algolia-...`) and the native ones (keys `native-...`). */
export const ALGOLIA_ANSWERS: ScaleAnswer[] = [
  ...ROUTES.map(([route]) => ({
    key: routeKey(route),
    label: `${route} 30d`,
    path: () => routeUrl(route, ALGOLIA_WINDOW),
    days: 30,
    rollup: true,
  })),
  {
    key: 'algolia-status',
    label: '/2/status',
    path: () => '/2/status?index=live',
    days: 1,
    rollup: true,
  },
  ...Object.entries(NATIVE).map(([key, [label, path]]) => ({
    key,
    label,
    path: () => `${path}${path.endsWith('?') ? '' : '&'}${NATIVE_WINDOW}`,
    days: 30,
    rollup: true,
    reference: true,
  })),
];

/** Each route's key and label with its native answer's key: the 1.2x target. */
export const ALGOLIA_PAIRS = ROUTES.map(([route, native]) => ({ key: routeKey(route), label: `${route} 30d`, native }));
