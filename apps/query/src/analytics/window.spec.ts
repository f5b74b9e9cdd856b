import { bucketBounds, foldIntoBuckets, isoInZone, previousWindow, resolveWindow, sinceWindow } from './window';
import { windowParts } from './window-parts';

const at = (iso: string) => Date.parse(iso);
const HOUR = 3_600_000;
const NOW = at('2026-11-22T10:17:00Z');

describe('sinceWindow and windowParts', () => {
  /** The hours a window's parts count, each hour once: days plus hours minus subtracted hours, as a multiset. */
  function counted(parts: ReturnType<typeof windowParts>): Map<number, number> {
    const n = new Map<number, number>();
    const add = (from: number, to: number, by: number) => {
      for (let h = from; h < to; h += HOUR) {
        n.set(h, (n.get(h) ?? 0) + by);
      }
    };
    for (const d of [...parts.days, ...(parts.weeks ? [parts.weeks] : [])]) {
      add(at(`${d.from}T00:00:00Z`), at(`${d.to}T00:00:00Z`), 1);
    }
    for (const h of parts.hours) {
      add(h.from, h.to, 1);
    }
    for (const h of parts.minus) {
      add(h.from, h.to, -1);
    }
    for (const [h, c] of [...n]) {
      if (c === 0) {
        n.delete(h);
      }
    }
    return n;
  }

  it('covers since=1d as 25 whole hours through the end of the current hour', () => {
    const w = sinceWindow(NOW, 1);
    expect(w).toEqual({ from: at('2026-11-21T10:00:00Z'), to: at('2026-11-22T11:00:00Z') });
    expect((w.to - w.from) / HOUR).toBe(25);
  });

  it('reads since=1d as the hours of yesterday inside it and today from the daily rollup minus its future hours', () => {
    const parts = windowParts(sinceWindow(NOW, 1), NOW);
    expect(parts).toEqual({
      days: [{ from: '2026-11-22', to: '2026-11-23' }],
      hours: [{ from: at('2026-11-21T10:00:00Z'), to: at('2026-11-22T00:00:00Z') }],
      minus: [{ from: at('2026-11-22T11:00:00Z'), to: at('2026-11-23T00:00:00Z') }],
    });
  });

  it('never subtracts hours before the window (they may have left the rollups by TTL), even of a mostly covered first day', () => {
    const late = at('2026-11-22T02:30:00Z');
    const parts = windowParts(sinceWindow(late, 1), late);
    expect(parts).toEqual({
      days: [],
      hours: [
        { from: at('2026-11-21T02:00:00Z'), to: at('2026-11-22T00:00:00Z') },
        { from: at('2026-11-22T00:00:00Z'), to: at('2026-11-22T03:00:00Z') },
      ],
      minus: [],
    });
    for (const w of [sinceWindow(NOW, 30), { from: at('2026-11-21T01:00:00Z'), to: at('2026-11-21T23:00:00Z') }]) {
      for (const weekly of [false, true]) {
        const p = windowParts(w, NOW, true, weekly);
        expect(p.minus.every((m) => m.from >= w.to)).toBe(true);
      }
    }
  });

  it('takes whole UTC days from the daily rollup and the edge hours from the hourly one (past windows)', () => {
    const parts = windowParts(sinceWindow(NOW, 7));
    expect(parts.days).toEqual([{ from: '2026-11-16', to: '2026-11-22' }]);
    expect(parts.hours).toEqual([
      { from: at('2026-11-15T10:00:00Z'), to: at('2026-11-16T00:00:00Z') },
      { from: at('2026-11-22T00:00:00Z'), to: at('2026-11-22T11:00:00Z') },
    ]);
    expect(parts.minus).toEqual([]);
  });

  it('counts every hour of the window once and no other hour, whichever way each edge day is read', () => {
    for (const now of [
      at('2026-11-22T00:00:00Z'),
      at('2026-11-22T23:59:59.999Z'),
      at('2026-03-29T01:30:00Z'),
      at('2024-02-29T12:00:00Z'),
      at('2026-11-22T21:10:00Z'),
    ]) {
      const windows = [1, 2, 7, 30, 400].map((since) => sinceWindow(now, since));
      for (let start = 0; start < 30; start += 7) {
        for (const length of [1, 3, 20, 23, 24, 25, 47, 49]) {
          const from = Math.floor(now / HOUR) * HOUR - start * HOUR;
          windows.push({ from, to: from + length * HOUR });
        }
      }
      for (const w of windows) {
        for (const [clock, subtract, weekly] of [
          [now, true, false],
          [Infinity, true, false],
          [now, false, false],
          [now, true, true],
          [Infinity, true, true],
          [now, false, true],
        ] as const) {
          const parts = windowParts(w, clock, subtract, weekly);
          if (!weekly) {
            expect(parts.weeks).toBeUndefined();
          }
          if (parts.weeks) {
            // Weeks as ClickHouse's toMonday keys them: from a Monday to a Monday, never before the window.
            expect([parts.weeks.from, parts.weeks.to].map((d) => new Date(`${d}T00:00:00Z`).getUTCDay())).toEqual([1, 1]);
            expect(at(`${parts.weeks.from}T00:00:00Z`)).toBeGreaterThanOrEqual(w.from);
          }
          if (!subtract) {
            expect(parts.minus).toEqual([]);
          }
          expect(parts.minus.every((m) => m.from >= w.to)).toBe(true);
          const expected = new Map<number, number>();
          for (let h = w.from; h < w.to; h += HOUR) {
            expected.set(h, 1);
          }
          expect(counted(parts)).toEqual(expected);
          expect([...parts.hours, ...parts.minus].every((h) => h.to > h.from)).toBe(true);
        }
      }
    }
  });

  it('reads since=30d as its whole weeks, the current one minus its future hours, and the days and hours before them', () => {
    // NOW is a Sunday: the window ends in the week of Monday 2026-11-16.
    const parts = windowParts(sinceWindow(NOW, 30), NOW, true, true);
    expect(parts).toEqual({
      weeks: { from: '2026-10-26', to: '2026-11-23' },
      days: [{ from: '2026-10-24', to: '2026-10-26' }],
      hours: [{ from: at('2026-10-23T10:00:00Z'), to: at('2026-10-24T00:00:00Z') }],
      minus: [{ from: at('2026-11-22T11:00:00Z'), to: at('2026-11-23T00:00:00Z') }],
    });
  });

  it('reads only whole weeks inside a past window, and whole weeks alone when nothing may be subtracted', () => {
    const past = { from: at('2026-10-01T05:00:00Z'), to: at('2026-10-29T17:00:00Z') };
    expect(windowParts(past, NOW, true, true)).toEqual({
      weeks: { from: '2026-10-05', to: '2026-10-26' },
      days: [
        { from: '2026-10-02', to: '2026-10-05' },
        { from: '2026-10-26', to: '2026-10-29' },
      ],
      hours: [
        { from: at('2026-10-01T05:00:00Z'), to: at('2026-10-02T00:00:00Z') },
        { from: at('2026-10-29T00:00:00Z'), to: at('2026-10-29T17:00:00Z') },
      ],
      minus: [],
    });
    const current = windowParts(sinceWindow(NOW, 30), NOW, false, true);
    expect(current.weeks).toEqual({ from: '2026-10-26', to: '2026-11-16' });
    expect(current.minus).toEqual([]);
  });

  it('reads a window of whole UTC days from the daily rollup only', () => {
    const parts = windowParts({ from: at('2026-11-01T00:00:00Z'), to: at('2026-11-08T00:00:00Z') });
    expect(parts).toEqual({ days: [{ from: '2026-11-01', to: '2026-11-08' }], hours: [], minus: [] });
  });

  it('puts the previous window of the same length just before', () => {
    const w = sinceWindow(NOW, 7);
    expect(previousWindow(w)).toEqual({ from: w.from - 7 * 24 * HOUR - HOUR, to: w.from });
  });
});

describe('resolveWindow', () => {
  const resolve = (p: Parameters<typeof resolveWindow>[0]) => resolveWindow(p, NOW, 400);

  it('defaults to since=1d in UTC', () => {
    expect(resolve({})).toEqual({ ...sinceWindow(NOW, 1), tz: 'UTC' });
  });

  it('reads a date alone as midnight in tz, and rounds from down and to up to the hour', () => {
    expect(resolve({ from: '2026-10-24', to: '2026-10-26', tz: 'Europe/Berlin' })).toEqual({
      from: at('2026-10-23T22:00:00Z'),
      to: at('2026-10-25T23:00:00Z'),
      tz: 'Europe/Berlin',
    });
    expect(resolve({ from: '2026-11-01T10:30', to: '2026-11-01T12:00:01' })).toMatchObject({
      from: at('2026-11-01T10:00:00Z'),
      to: at('2026-11-01T13:00:00Z'),
    });
  });

  it('takes an explicit offset over tz', () => {
    expect(resolve({ from: '2026-11-01T10:00+02:00', to: '2026-11-01T12:00Z', tz: 'America/New_York' })).toMatchObject({
      from: at('2026-11-01T08:00:00Z'),
      to: at('2026-11-01T12:00:00Z'),
    });
  });

  it.each([
    [{ tz: 'Mars/Olympus' }, /^tz must be an IANA time zone/],
    [{ tz: 'Asia/Kolkata' }, /^tz Asia\/Kolkata has an offset of 330 minutes/],
    [{ since: '1d', from: '2026-11-01', to: '2026-11-02' }, /^since cannot be combined with from and to/],
    [{ from: '2026-11-01' }, /^to is required with from/],
    [{ to: '2026-11-01' }, /^from is required with to/],
    [{ from: '2026-11-02', to: '2026-11-01' }, /^from must be before to/],
    [{ from: '2026-11-01T10:50', to: '2026-11-01T10:10' }, /^from must be before to/],
    [{ from: '2026-11-01T10:10', to: '2026-11-01T10:10' }, /^from must be before to/],
    [{ from: '2026-02-30', to: '2026-03-02' }, /^from is not a valid date/],
    [{ from: '2024-01-01', to: '2026-03-02' }, /^from must not be before 2025-10-18T10:00:00Z: the retention is 400 days/],
    [{ since: '401d' }, /^since must be at most 400d/],
    [{ from: '2026-11-20', to: '2028-01-01' }, /^to must be at most 400 days after from/],
  ])('rejects %j naming the parameter', (params, message) => {
    expect(() => resolve(params)).toThrow(message);
  });

  it('accepts a zone whose offset changes by whole hours (DST)', () => {
    expect(resolve({ from: '2026-03-20', to: '2026-04-05', tz: 'Europe/Berlin' }).tz).toBe('Europe/Berlin');
  });
});

describe('bucketBounds and foldIntoBuckets', () => {
  it('gives 25 hours to the Berlin day on which daylight saving ends, 23 to the day it begins', () => {
    const autumn = resolveWindow({ from: '2026-10-25', to: '2026-10-26', tz: 'Europe/Berlin' }, NOW, 400);
    expect(bucketBounds(autumn, 'day')).toEqual([at('2026-10-24T22:00:00Z'), at('2026-10-25T23:00:00Z')]);
    expect(bucketBounds(autumn, 'hour')).toHaveLength(26);
    const spring = resolveWindow({ from: '2026-03-29', to: '2026-03-30', tz: 'Europe/Berlin' }, NOW, 400);
    expect(bucketBounds(spring, 'day')).toEqual([at('2026-03-28T23:00:00Z'), at('2026-03-29T22:00:00Z')]);
  });

  it('starts day buckets at midnight in tz, the first one before a window that starts within the day', () => {
    const w = { from: at('2026-11-15T10:00:00Z'), to: at('2026-11-17T11:00:00Z'), tz: 'UTC' };
    expect(bucketBounds(w, 'day')).toEqual([
      at('2026-11-15T00:00:00Z'),
      at('2026-11-16T00:00:00Z'),
      at('2026-11-17T00:00:00Z'),
      at('2026-11-18T00:00:00Z'),
    ]);
  });

  it('rejects a series longer than 2,000 buckets, naming interval', () => {
    const w = { ...sinceWindow(NOW, 90), tz: 'UTC' };
    expect(() => bucketBounds(w, 'hour')).toThrow(/^interval hour gives 2161 buckets/);
    expect(bucketBounds(w, 'day')).toHaveLength(92);
  });

  it('adds every hour into its bucket and keeps empty buckets', () => {
    const bounds = [at('2026-11-15T00:00:00Z'), at('2026-11-16T00:00:00Z'), at('2026-11-17T00:00:00Z'), at('2026-11-18T00:00:00Z')];
    const hours = [
      { hour: at('2026-11-17T05:00:00Z'), n: 2 },
      { hour: at('2026-11-15T23:00:00Z'), n: 1 },
      { hour: at('2026-11-15T10:00:00Z'), n: 4 },
    ];
    expect(foldIntoBuckets(bounds, hours, ['n'])).toEqual([
      { start: bounds[0], n: 5 },
      { start: bounds[1], n: 0 },
      { start: bounds[2], n: 2 },
    ]);
  });

  it('writes times with the offset of tz, Z for UTC', () => {
    expect(isoInZone(at('2026-10-24T22:00:00Z'), 'Europe/Berlin')).toBe('2026-10-25T00:00:00+02:00');
    expect(isoInZone(at('2026-10-24T22:00:00Z'), 'UTC')).toBe('2026-10-24T22:00:00Z');
  });
});
