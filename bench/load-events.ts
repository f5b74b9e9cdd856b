/** Loads generated search events (generator.ts) straight into search_events, as the benchmarks' data sets do. */
import type { ClickHouseService } from '@app/clickhouse';
import { BotDetector, validateSearchEvent, type SearchEventRow } from '@app/contracts';
import { searchEvents } from './generator';

const DAY = 24 * 3_600_000;

/** The share of the loaded searches sent with an id (clicks and conversions can refer to them). */
const ID_SENT_SHARE = 0.6;

/**
 * `count` events of `customer` over the 30 days before now, in inserts of 200,000 rows; logs progress on stderr.
 * ID_SENT_SHARE of them count as sent with their id (every fifth in five: the first three).
 */
export async function loadEvents(ch: ClickHouseService, customer: string, count: number, seed?: number): Promise<void> {
  const bots = new BotDetector();
  const now = Date.now();
  let batch: SearchEventRow[] = [];
  let n = 0;
  for (const e of searchEvents(count, { customer, seed, spanMs: 30 * DAY, end: now - 1000 })) {
    const r = validateSearchEvent(e, { now, source: 'kafka', topic: 'load', partition: 0, offset: n++ }, { retentionDays: 400, bots });
    if (r.ok) {
      r.row.id_sent = n % 5 < ID_SENT_SHARE * 5;
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

/**
 * Clicks and conversions of the query benchmark's data set (issue 29: 2M clicks and 200k conversions beside 10M
 * searches), generated inside the engine from the searches sent with an id: a click on about a third of them (at
 * positions 1 to 30, skewed to the top) and a conversion on 1 in 30, seconds to minutes after the search, some
 * with a value in EUR. Scaled to `count` searches; skipped when the interactions are already there.
 */
export async function loadInteractions(ch: ClickHouseService, customer: string, count: number): Promise<void> {
  const [{ c }] = await ch.query<{ c: string }>(`SELECT count() AS c FROM ${ch.table('interactions')} WHERE customer = {customer:String}`, {
    customer,
  });
  if (Number(c) > 0) {
    return;
  }
  const [{ ids }] = await ch.query<{ ids: string }>(
    `SELECT count() AS ids FROM ${ch.table('search_ids')} WHERE customer = {customer:String}`,
    {
      customer,
    },
  );
  if (Number(ids) === 0) {
    throw new Error(
      'the data set has no searches sent with an id (loaded before clicks existed): delete it (tmp/bench-query) and run again',
    );
  }
  const clicks = Math.round(count / 5);
  const conversions = Math.round(count / 50);
  const insert = (type: string, n: number, extra: string) =>
    ch.command(
      `INSERT INTO ${ch.table('interactions')}
         (interaction_id, customer, instance, type, search_id, object_id, position, subtype, value, currency, ts,
          user_token_hash, origin, source, received_at)
       SELECT generateUUIDv4(), customer, instance, '${type}', search_id, concat('sku-', toString(cityHash64(search_id, 1) % 5000)),
         ${extra}, ts + toIntervalSecond(5 + cityHash64(search_id, 3) % 600), '', 'events', 'http', now64(3)
       FROM (
         SELECT customer, instance, search_id, min(first).1 AS ts FROM ${ch.table('search_ids')}
         WHERE customer = {customer:String} GROUP BY customer, instance, search_id
         ORDER BY cityHash64(search_id, '${type}') LIMIT {n:UInt64}
       )`,
      { customer, n },
    );
  // Positions skewed to the top: the smaller of two draws from 1 to 30.
  await insert('click', clicks, `least(1 + cityHash64(search_id, 4) % 30, 1 + cityHash64(search_id, 5) % 30), '', 0, ''`);
  await insert(
    'conversion',
    conversions,
    `0, 'purchase', toDecimal64(if(cityHash64(search_id, 6) % 2 = 0, (cityHash64(search_id, 7) % 20000) / 100, 0), 6),
     if(cityHash64(search_id, 6) % 2 = 0, 'EUR', '')`,
  );
}
