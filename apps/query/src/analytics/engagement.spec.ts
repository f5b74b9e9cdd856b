import { amount, countsOf, emptyCounts, engagementFields, foldCounts, micros, sumCounts } from './engagement';

const HOUR = 3_600_000;

describe('engagement figures', () => {
  it('reads decimals of storage as exact millionths and writes them back as the nearest number', () => {
    expect(micros('12.5')).toBe(12_500_000n);
    expect(micros('3')).toBe(3_000_000n);
    expect(micros('0.000001')).toBe(1n);
    expect(micros('999999999999.999999')).toBe(999_999_999_999_999_999n);
    expect(amount(micros('0.1') + micros('0.2'))).toBe(0.3);
    expect(amount(1n)).toBe(0.000001);
    expect(amount(micros('1234.5'))).toBe(1234.5);
  });

  it('gives null rates and mean on a zero denominator, {} without revenue', () => {
    const fields = engagementFields(emptyCounts());
    expect([
      fields.click_through_rate,
      fields.average_click_position,
      fields.conversion_rate,
      fields.revenue,
      fields.add_to_cart_rate,
      fields.purchase_rate,
      fields.purchase_revenue,
    ]).toEqual([null, null, null, {}, null, null, {}]);
  });

  it('adds groups exactly, currencies ascending', () => {
    const a = countsOf({
      ...{ tracked: '3', clicked: '1', clicks_n: '2', pos_sum: '5', converted: '1', rev_cur: ['USD'], rev_val: ['0.1'] },
      ...{ carted: '1', purchased: '1', pur_cur: ['USD'], pur_val: ['0.1'] },
    });
    const b = countsOf({
      ...{ tracked: 1, clicked: 1, clicks_n: 1, pos_sum: 2, converted: 0, rev_cur: ['EUR', 'USD'], rev_val: ['1', '0.2'] },
      ...{ carted: 1, purchased: 0, pur_cur: ['EUR'], pur_val: ['1'] },
    });
    expect(engagementFields(sumCounts([a, b]))).toEqual({
      tracked_searches: 4,
      clicked_searches: 2,
      click_through_rate: 0.5,
      clicks: 3,
      average_click_position: 7 / 3,
      converted_searches: 1,
      conversion_rate: 0.25,
      revenue: { EUR: 1, USD: 0.3 },
      added_to_cart_searches: 2,
      add_to_cart_rate: 0.5,
      purchased_searches: 1,
      purchase_rate: 0.25,
      purchase_revenue: { EUR: 1, USD: 0.1 },
    });
  });

  it('folds hours into the bucket that holds them', () => {
    const counts = (tracked: number) => ({ ...emptyCounts(), tracked });
    const bounds = [0, 24 * HOUR, 48 * HOUR, 72 * HOUR];
    const buckets = foldCounts(bounds, [
      { hour: 0, counts: counts(1) },
      { hour: 23 * HOUR, counts: counts(2) },
      { hour: 48 * HOUR, counts: counts(4) },
      { hour: 71 * HOUR, counts: counts(8) },
    ]);
    expect(buckets.map((b) => b.tracked)).toEqual([3, 0, 12]);
  });
});
