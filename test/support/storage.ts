import { ClickHouseService } from '@app/clickhouse';
import type { TestApp } from './test-app';

export interface StoredCounts {
  events: number;
  distinctEvents: number;
  rollup: number;
  rejected: number;
}

/** What ClickHouse holds for a customer: raw events (and distinct ids), the rollup's sum, rejected events. */
export async function storedCounts(t: TestApp, customer = 'demo'): Promise<StoredCounts> {
  const ch = t.app.get(ClickHouseService);
  const [row] = await ch.query<{ events: string; distinct_events: string; rollup: string; rejected: string }>(
    `SELECT
       (SELECT count() FROM ${ch.table('search_events')} WHERE customer = {c:String}) AS events,
       (SELECT uniqExact(event_id) FROM ${ch.table('search_events')} WHERE customer = {c:String}) AS distinct_events,
       (SELECT sum(searches) FROM ${ch.table('search_terms_hourly')} WHERE customer = {c:String}) AS rollup,
       (SELECT count() FROM ${ch.table('rejected_events')} WHERE customer = {c:String}) AS rejected`,
    { c: customer },
  );
  return { events: Number(row.events), distinctEvents: Number(row.distinct_events), rollup: Number(row.rollup), rejected: Number(row.rejected) };
}

/** Polls until `check` holds or the time is up; returns the last value either way. */
export async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!check(value) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    value = await read();
  }
  return value;
}
