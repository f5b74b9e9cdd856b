import type { EngagementFields } from '../analytics/engagement';

/**
 * The native figures in the shape of Algolia's Analytics API answers (docs/algolia.md): renaming and folding only,
 * every figure comes from a native answer.
 */

/** A click position's clicks, as the native answers list them: 1 to 21, where 21 is 21 and beyond. */
export interface PositionClicks {
  position: number;
  clicks: number;
}

/** Algolia's `clickPositions`: exactly 12 ranges, [1,1] to [10,10], [11,20] and [21,-1] (-1: to the end). */
export function clickPositions(
  positions: readonly PositionClicks[] | undefined,
): Array<{ position: [number, number]; clickCount: number }> {
  const clicks = (from: number, to: number) =>
    (positions ?? []).filter((p) => p.position >= from && p.position <= to).reduce((sum, p) => sum + p.clicks, 0);
  const ranges: Array<[number, number]> = [...Array.from({ length: 10 }, (_, i): [number, number] => [i + 1, i + 1]), [11, 20], [21, -1]];
  return ranges.map(([from, to]) => ({ position: [from, to], clickCount: clicks(from, to === -1 ? Infinity : to) }));
}

/** Algolia's `currencies`: per currency code, the code and the amount. */
export function currencies(amounts: Record<string, number>): Record<string, { currency: string; revenue: number }> {
  return Object.fromEntries(Object.entries(amounts).map(([currency, revenue]) => [currency, { currency, revenue }]));
}

/** The figures `clickAnalytics=true` adds to a top search. */
export function clickFigures(e: EngagementFields, positions: readonly PositionClicks[] | undefined) {
  return {
    clickThroughRate: e.click_through_rate,
    averageClickPosition: e.average_click_position,
    clickPositions: clickPositions(positions),
    conversionRate: e.conversion_rate,
    trackedSearchCount: e.tracked_searches,
    clickCount: e.clicks,
    conversionCount: e.converted_searches,
  };
}

/** The figures `revenueAnalytics=true` adds to a top search. */
export function revenueFigures(e: EngagementFields) {
  return {
    currencies: currencies(e.purchase_revenue),
    addToCartRate: e.add_to_cart_rate,
    addToCartCount: e.added_to_cart_searches,
    purchaseRate: e.purchase_rate,
    purchaseCount: e.purchased_searches,
  };
}

/** A day of a native daily series (`start`, midnight UTC) as Algolia's `date`. */
export const dateOf = (start: string): string => start.slice(0, 10);

/** A share of `total` that is 0 when `total` is (where Algolia's document allows no null). */
export const shareOrZero = (part: number, total: number): number => (total === 0 ? 0 : part / total);
