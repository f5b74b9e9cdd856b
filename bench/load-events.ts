/** Loads generated search events (generator.ts) straight into search_events, as the benchmarks' data sets do. */
import type { ClickHouseService } from '@app/clickhouse';
import { BotDetector, validateSearchEvent, type SearchEventRow } from '@app/contracts';
import { searchEvents } from './generator';

const DAY = 24 * 3_600_000;

/** `count` events of `customer` over the 30 days before now, in inserts of 200,000 rows; logs progress on stderr. */
export async function loadEvents(ch: ClickHouseService, customer: string, count: number, seed?: number): Promise<void> {
  const bots = new BotDetector();
  const now = Date.now();
  let batch: SearchEventRow[] = [];
  let n = 0;
  for (const e of searchEvents(count, { customer, seed, spanMs: 30 * DAY, end: now - 1000 })) {
    const r = validateSearchEvent(e, { now, source: 'kafka', topic: 'load', partition: 0, offset: n++ }, { retentionDays: 400, bots });
    if (r.ok) {
      batch.push(r.row);
    }
    if (batch.length === 200_000) {
      await ch.insert('search_events', batch, `load:${customer}:${n}`);
      batch = [];
      process.stderr.write(`${customer}: loaded ${n}\r`);
    }
  }
  await ch.insert('search_events', batch, `load:${customer}:${n}`);
}

/** The events of `customer` already stored. */
export async function storedEvents(ch: ClickHouseService, customer: string): Promise<number> {
  const [{ c }] = await ch.query<{ c: string }>(
    `SELECT count() AS c FROM ${ch.table('search_events')} WHERE customer = {customer:String}`,
    {
      customer,
    },
  );
  return Number(c);
}
