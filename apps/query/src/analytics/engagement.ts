/**
 * Engagement figures (docs/architecture.md, "Clicks and conversions"): the counts storage returns for a group of
 * searches (a phrase, an hour), how groups add up, and the fields of an answer. Counts of searches add up across
 * groups because every tracked search belongs to one group (its canonical copy's phrase and hour). Revenue is
 * carried in millionths of the currency unit as integers (storage keeps 6 decimals), so that adding hours into
 * buckets is exact; it becomes a number only in the answer.
 */

/** The counts of one group of tracked searches. */
export interface EngagementCounts {
  tracked: number;
  clicked: number;
  clicks: number;
  /** The sum of the clicks' positions. */
  positionSum: number;
  converted: number;
  /** Per currency, in millionths. */
  revenue: Map<string, bigint>;
  /** Tracked searches with at least one addToCart conversion. */
  carted: number;
  /** Tracked searches with at least one purchase conversion. */
  purchased: number;
  /** The value of purchase conversions per currency, in millionths. */
  purchaseRevenue: Map<string, bigint>;
}

/** The engagement fields of an answer (an entry of the list, the totals, a bucket, a term). */
export interface EngagementFields {
  tracked_searches: number;
  clicked_searches: number;
  click_through_rate: number | null;
  clicks: number;
  average_click_position: number | null;
  converted_searches: number;
  conversion_rate: number | null;
  revenue: Record<string, number>;
  added_to_cart_searches: number;
  add_to_cart_rate: number | null;
  purchased_searches: number;
  purchase_rate: number | null;
  purchase_revenue: Record<string, number>;
}

/** A row as storage returns the counts of a group (EngagementRepository). */
export interface EngagementRaw {
  tracked: string | number;
  clicked: string | number;
  clicks_n: string | number;
  pos_sum: string | number;
  converted: string | number;
  /** Currencies, ascending, and their sums as decimal strings. */
  rev_cur: string[];
  rev_val: string[];
  carted: string | number;
  purchased: string | number;
  pur_cur: string[];
  pur_val: string[];
}

const MICROS = 1_000_000n;

/** A decimal string of storage ('12.5', '3') in millionths. */
export function micros(decimal: string): bigint {
  const negative = decimal.startsWith('-');
  const [whole, fraction = ''] = (negative ? decimal.slice(1) : decimal).split('.');
  const value = BigInt(whole) * MICROS + BigInt(fraction.padEnd(6, '0').slice(0, 6));
  return negative ? -value : value;
}

/** Millionths as the nearest number to the exact decimal (as JSON.parse reads the decimal). */
export function amount(m: bigint): number {
  const negative = m < 0n;
  const abs = negative ? -m : m;
  return Number(`${negative ? '-' : ''}${abs / MICROS}.${(abs % MICROS).toString().padStart(6, '0')}`);
}

export function emptyCounts(): EngagementCounts {
  return {
    tracked: 0,
    clicked: 0,
    clicks: 0,
    positionSum: 0,
    converted: 0,
    revenue: new Map(),
    carted: 0,
    purchased: 0,
    purchaseRevenue: new Map(),
  };
}

/** Sums per currency as storage returns them (currencies, decimal strings), in millionths. */
function amounts(currencies: string[] | undefined, values: string[] | undefined): Map<string, bigint> {
  return new Map((currencies ?? []).map((currency, i) => [currency, micros(values![i])]));
}

function addAmounts(a: Map<string, bigint>, b: Map<string, bigint>): void {
  for (const [currency, m] of b) {
    a.set(currency, (a.get(currency) ?? 0n) + m);
  }
}

/** Amounts per currency as an answer writes them: currencies ascending, numbers. */
export function amountFields(m: Map<string, bigint>): Record<string, number> {
  return Object.fromEntries([...m].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)).map(([cur, v]) => [cur, amount(v)]));
}

export function countsOf(raw: EngagementRaw): EngagementCounts {
  return {
    tracked: Number(raw.tracked),
    clicked: Number(raw.clicked),
    clicks: Number(raw.clicks_n),
    positionSum: Number(raw.pos_sum),
    converted: Number(raw.converted),
    revenue: amounts(raw.rev_cur, raw.rev_val),
    carted: Number(raw.carted),
    purchased: Number(raw.purchased),
    purchaseRevenue: amounts(raw.pur_cur, raw.pur_val),
  };
}

/** Adds `b` into `a`. */
export function addCounts(a: EngagementCounts, b: EngagementCounts): EngagementCounts {
  a.tracked += b.tracked;
  a.clicked += b.clicked;
  a.clicks += b.clicks;
  a.positionSum += b.positionSum;
  a.converted += b.converted;
  addAmounts(a.revenue, b.revenue);
  a.carted += b.carted;
  a.purchased += b.purchased;
  addAmounts(a.purchaseRevenue, b.purchaseRevenue);
  return a;
}

/** The sum of every group. */
export function sumCounts(groups: readonly EngagementCounts[]): EngagementCounts {
  return groups.reduce(addCounts, emptyCounts());
}

const ratio = (part: number, whole: number) => (whole === 0 ? null : part / whole);

/** The fields of an answer: rates and the mean position null on a zero denominator, currencies ascending. */
export function engagementFields(c: EngagementCounts): EngagementFields {
  return {
    tracked_searches: c.tracked,
    clicked_searches: c.clicked,
    click_through_rate: ratio(c.clicked, c.tracked),
    clicks: c.clicks,
    average_click_position: ratio(c.positionSum, c.clicks),
    converted_searches: c.converted,
    conversion_rate: ratio(c.converted, c.tracked),
    revenue: amountFields(c.revenue),
    added_to_cart_searches: c.carted,
    add_to_cart_rate: ratio(c.carted, c.tracked),
    purchased_searches: c.purchased,
    purchase_rate: ratio(c.purchased, c.tracked),
    purchase_revenue: amountFields(c.purchaseRevenue),
  };
}

/** The counts of each bucket of `bounds` (as from bucketBounds): every hour's counts added into the bucket that holds it. */
export function foldCounts(
  bounds: readonly number[],
  hours: ReadonlyArray<{ hour: number; counts: EngagementCounts }>,
): EngagementCounts[] {
  const buckets = bounds.slice(0, -1).map(() => emptyCounts());
  for (const h of hours) {
    // The last bound at or before the hour (hours lie within the window).
    let lo = 0;
    let hi = buckets.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (bounds[mid] <= h.hour) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    addCounts(buckets[lo], h.counts);
  }
  return buckets;
}

/** The highest position of its own in `positions`; beyond it, one entry for all. */
export const LAST_POSITION = 21;

/** `positions` of an answer: every position 1 to LAST_POSITION with its clicks, zeros included. */
export function positionsView(clicks: ReadonlyMap<number, number> | undefined): Array<{ position: number; clicks: number }> {
  return Array.from({ length: LAST_POSITION }, (_, i) => ({ position: i + 1, clicks: clicks?.get(i + 1) ?? 0 }));
}
