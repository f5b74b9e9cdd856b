import { termsWindow } from './terms-window';

const at = (iso: string) => Date.parse(iso);
const HOUR = 3_600_000;

describe('termsWindow', () => {
  it('covers since=1d as 25 whole hours, all from the hourly rollup, through the end of the current hour', () => {
    const w = termsWindow(at('2026-11-22T10:17:00Z'), 1);
    expect(w).toEqual({
      from: at('2026-11-21T10:00:00Z'),
      to: at('2026-11-22T11:00:00Z'),
      hours: [{ from: at('2026-11-21T10:00:00Z'), to: at('2026-11-22T11:00:00Z') }],
    });
    expect((w.to - w.from) / HOUR).toBe(25);
  });

  it('takes whole UTC days from the daily rollup and the edge hours from the hourly one', () => {
    const w = termsWindow(at('2026-11-22T10:17:00Z'), 7);
    expect(w.days).toEqual({ from: '2026-11-16', to: '2026-11-22' });
    expect(w.hours).toEqual([
      { from: at('2026-11-15T10:00:00Z'), to: at('2026-11-16T00:00:00Z') },
      { from: at('2026-11-22T00:00:00Z'), to: at('2026-11-22T11:00:00Z') },
    ]);
  });

  it('leaves no gap and no overlap between the parts', () => {
    for (const now of [
      at('2026-11-22T00:00:00Z'),
      at('2026-11-22T23:59:59.999Z'),
      at('2026-03-29T01:30:00Z'),
      at('2024-02-29T12:00:00Z'),
    ]) {
      for (const since of [1, 2, 7, 30, 400]) {
        const w = termsWindow(now, since);
        const dayMs = w.days ? Date.parse(`${w.days.to}T00:00:00Z`) - Date.parse(`${w.days.from}T00:00:00Z`) : 0;
        const hourMs = w.hours.reduce((sum, h) => sum + (h.to - h.from), 0);
        expect(dayMs + hourMs).toBe(w.to - w.from);
        expect(w.hours.every((h) => h.to >= h.from)).toBe(true);
        if (w.days) {
          expect(w.hours[0].to).toBe(Date.parse(`${w.days.from}T00:00:00Z`));
          expect(w.hours[1].from).toBe(Date.parse(`${w.days.to}T00:00:00Z`));
        }
      }
    }
  });

  it('reads a window starting at midnight from whole days only (the leading hourly part is empty)', () => {
    const w = termsWindow(at('2026-11-22T00:30:00Z'), 2);
    expect(w.from).toBe(at('2026-11-20T00:00:00Z'));
    expect(w.days).toEqual({ from: '2026-11-20', to: '2026-11-22' });
    expect(w.hours[0]).toEqual({ from: w.from, to: w.from });
  });
});
