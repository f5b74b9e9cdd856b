import { ClickHouseCluster } from '@app/clickhouse';
import { SearchEventsRepository, type StoredCounts } from '@app/intake';
import type { TestApp } from './test-app';

export type { StoredCounts };

export function storedCounts(t: TestApp, customer = 'demo'): Promise<StoredCounts> {
  return t.app.get(SearchEventsRepository).counts(customer);
}

/** Polls until `check` holds or the time is up; returns the last value either way. */
export async function eventually<T>(read: () => T | Promise<T>, check: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!check(value) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    value = await read();
  }
  return value;
}

/**
 * What the answers count of the last day's searches at `url`: the totals of GET /search-stats and the sum of the
 * counts of both lists (up to 200 terms each).
 */
export async function answeredCounts(url: string, authorization: string): Promise<{ stats: number; lists: number }> {
  const headers = { authorization };
  const stats = (await (await fetch(`${url}/search-stats?since=1d`, { headers })).json()) as { totals: { searches: number } };
  let lists = 0;
  for (const hits of ['true', 'false']) {
    const terms = (await (await fetch(`${url}/search-terms?since=1d&hits=${hits}&_end=200`, { headers })).json()) as Array<{
      count: number;
    }>;
    lists += terms.reduce((sum, t) => sum + t.count, 0);
  }
  return { stats: stats.totals.searches, lists };
}

/**
 * A statement that changes a table's stored state on purpose (a CONSTRAINT that makes its inserts fail, OPTIMIZE,
 * TRUNCATE): on one server or the embedded engine as written; on the loopback cluster (TEST_CLUSTER=1) on every shard's
 * local table, as the app's mutations run.
 */
export function onStoredTables(t: TestApp, sql: string, params: Record<string, unknown> = {}): Promise<void> {
  return t.app.get(ClickHouseCluster).mutate(sql, params);
}
