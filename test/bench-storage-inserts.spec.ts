import { insertsBetween, maxPerSecond, metricSum, parseInserts } from '../bench/storage-inserts';

const sample = (at: number, search_events: number, used_nonces = 0) => ({ at, counts: { search_events, used_nonces } });

describe('the intake benchmark reads storage_inserts_total (bench/storage-inserts.ts)', () => {
  it('reads each table of the counter from a Prometheus text, and sums a metric over matching labels', () => {
    const text = [
      '# HELP storage_inserts_total INSERT statements sent to storage, by table',
      '# TYPE storage_inserts_total counter',
      'storage_inserts_total{table="search_events"} 12',
      'storage_inserts_total{table="used_nonces"} 340',
      'ingest_items_accepted_total{kind="search-event",source="kafka"} 5',
      'ingest_items_accepted_total{kind="search-event",source="http"} 7',
    ].join('\n');
    expect(parseInserts(text)).toEqual({ search_events: 12, used_nonces: 340 });
    expect(metricSum(text, 'ingest_items_accepted_total', 'source="kafka"')).toBe(5);
    expect(metricSum(text, 'ingest_items_accepted_total')).toBe(12);
  });

  it('finds the busiest second of samples 250 ms apart, per table', () => {
    const samples = [0, 250, 500, 750, 1000, 1250, 1500, 1750, 2000].map((at, i) => sample(at, [0, 1, 2, 3, 4, 30, 60, 61, 62][i], i * 10));
    // From 500 ms to 1500 ms: 60 - 2 = 58 inserts into search_events; used_nonces grows 40 in every second.
    expect(maxPerSecond(samples)).toEqual({ search_events: 58, used_nonces: 40 });
    expect(insertsBetween(samples)).toEqual({ search_events: 62, used_nonces: 80 });
  });

  it('scales a window to a second when /metrics answered late', () => {
    expect(maxPerSecond([sample(0, 0), sample(2000, 100)])).toEqual({ search_events: 50, used_nonces: 0 });
    expect(maxPerSecond([sample(0, 0), sample(500, 100)])).toEqual({ search_events: 0, used_nonces: 0 });
  });
});
