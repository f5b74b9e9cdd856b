import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { ClickHouseService, SEARCH_ROLLUPS, rawRollupRows, searchIdsSelect, type SignedRollup } from '@app/clickhouse';

/** A row of search_events stored more than once under one request's retry token. */
export interface StoredTwice {
  customer: string;
  instance: string;
  token: string;
  eventId: string;
  /** sum(sign) of the rows of the request's first insert (more than 1 when the request repeated the id). */
  first: number;
  /** sum(sign) of all its rows: more than `first`. */
  copies: number;
}

/** A bucket (hour, day or week) of a rollup whose total differs from the raw rows'. */
export interface RollupDifference {
  table: string;
  /** The bucket's start, as the store writes it (`2026-11-27 10:00:00`, or a date). */
  bucket: string;
  /** Raw minus rollup: positive where the rollup is short, negative where it counts too much. */
  difference: number;
}

/**
 * The rollup a daily or weekly one is compared with: the same count a step finer, checked before it in
 * SEARCH_ROLLUPS' order (the hourly ones against the raw rows).
 */
const FINER: Readonly<Record<string, string>> = {
  search_terms_daily: 'search_terms_hourly',
  search_phrases_daily: 'search_phrases_hourly',
  search_phrases_weekly: 'search_phrases_daily',
};

function rollupNamed(table: string): SignedRollup {
  const rollup = SEARCH_ROLLUPS.find((r) => r.table === table);
  if (!rollup) {
    throw new Error(`${table} is not a rollup of search_events`);
  }
  return rollup;
}

/** The time column of a rollup (`hour`, `day` or `week`) and its expression over search_events. */
function bucketOf(rollup: SignedRollup): readonly [column: string, expression: string] {
  const bucket = rollup.keys.find(([column]) => column === 'hour' || column === 'day' || column === 'week');
  if (!bucket) {
    throw new Error(`${rollup.table} has no hour, day or week key`);
  }
  return bucket;
}

/**
 * The SQL of the storage check (StorageCheck): where a half-done insert may be (parts written since a time), rows a
 * retry stored twice, and the buckets of each rollup whose counts differ from the raw rows', made exact per table.
 * Every repair is an INSERT ... SELECT that computes what it writes when it runs, under a fresh token (through chdb
 * a token stays in force for the session), so a repeated run finds nothing left to repair.
 */
@Injectable()
export class StorageCheckRepository {
  constructor(
    private readonly ch: ClickHouseService,
    private readonly config: AppConfig,
  ) {}

  /**
   * Rows received from `sinceMs` on, read only from the parts written since then (a part is written after its rows
   * were received; 5 minutes of margin for the clocks of other processes): a check reads what is new, not the table.
   */
  private recent(sinceMs: number, table = 'search_events'): string {
    return `received_at >= fromUnixTimestamp64Milli(toInt64(${Math.trunc(sinceMs)}), 'UTC')
      AND _part IN (${this.parts(`AND modification_time >= toDateTime(${Math.trunc(sinceMs / 1000)} - 300)`, table)})`;
  }

  /** The active parts of `table` that `clause` keeps (a condition, an order and a limit). */
  private parts(clause: string, table = 'search_events'): string {
    return `SELECT name FROM system.parts WHERE database = '${this.ch.database}' AND table = '${table}' AND active ${clause}`;
  }

  /** When the newest rows were received (ms), or undefined for an empty table: a start checks from shortly before. */
  async newestReceived(): Promise<number | undefined> {
    const [row] = await this.ch.query<{ at: string }>(
      `SELECT toString(toUnixTimestamp64Milli(max(received_at))) AS at FROM ${this.ch.table('search_events')}
       WHERE _part IN (${this.parts('ORDER BY max_block_number DESC LIMIT 20')})`,
    );
    const at = Number(row?.at ?? 0);
    return at > 0 ? at : undefined;
  }

  /** The hours of the rows received since `sinceMs` (ms, ascending): where a half-done insert can be. */
  async suspectHours(sinceMs: number): Promise<number[]> {
    const rows = await this.ch.query<{ hour: string }>(
      // Not the hours within a day of the retention's end: the raw rows and each rollup expire there at times of
      // their own (per row, per hour, day or week), so they may differ there without any insert cut.
      `SELECT DISTINCT toString(toUnixTimestamp(toStartOfHour(ts))) AS hour FROM ${this.ch.table('search_events')}
       WHERE ${this.recent(sinceMs)} AND ts >= now() - INTERVAL ${this.config.retentionDays - 1} DAY ORDER BY hour`,
    );
    return rows.map((r) => Number(r.hour) * 1000);
  }

  /**
   * Rows received since `sinceMs` whose retry token and event id were stored again after the request's first insert:
   * a request's rows share one receive time, and a retry's have a later one. `first` is what the first insert stored
   * (a request may repeat an id: those copies are the client's), `copies` what all hold (sum(sign)).
   */
  async storedTwice(sinceMs: number): Promise<StoredTwice[]> {
    const rows = await this.ch.query<{
      customer: string;
      instance: string;
      token: string;
      event_id: string;
      first: string;
      copies: string;
    }>(
      `SELECT customer, instance, token, event_id, toString(argMin(stored, received_at)) AS first, toString(sum(stored)) AS copies
       FROM (
         SELECT customer, instance, intake_token AS token, toString(event_id) AS event_id, received_at, sum(sign) AS stored
         FROM ${this.ch.table('search_events')}
         WHERE received_at >= fromUnixTimestamp64Milli(toInt64(${Math.trunc(sinceMs) - 86_400_000}), 'UTC')
           AND (customer, instance, intake_token) IN (
           SELECT DISTINCT customer, instance, intake_token FROM ${this.ch.table('search_events')}
           WHERE intake_token != '' AND ${this.recent(sinceMs)})
         GROUP BY customer, instance, token, event_id, received_at)
       GROUP BY customer, instance, token, event_id HAVING sum(stored) > argMin(stored, received_at)`,
    );
    return rows.map((r) => ({
      customer: r.customer,
      instance: r.instance,
      token: r.token,
      eventId: r.event_id,
      first: Number(r.first),
      copies: Number(r.copies),
    }));
  }

  /**
   * One compensating row for an event stored `copies` times: a copy with sign = first - copies. It goes through every
   * view like any insert, so the rollups that counted every copy become exact, and those that missed one count it
   * short until compared with the raw rows (rollupDifferences), which runs after.
   */
  async compensate(twice: StoredTwice): Promise<void> {
    // The copy's sign is replaced outside the subquery: an alias in the SELECT list would also be what WHERE reads.
    await this.ch.command(
      `INSERT INTO ${this.ch.table('search_events')} SETTINGS insert_deduplication_token = '${randomUUID()}'
       SELECT * REPLACE (toInt8({sign:Int8}) AS sign) FROM (
         SELECT * FROM ${this.ch.table('search_events')}
         WHERE customer = {customer:String} AND instance = {instance:String} AND intake_token = {token:String}
           AND event_id = toUUID({eventId:String}) AND sign > 0
         ORDER BY received_at DESC
         LIMIT 1)`,
      { sign: twice.first - twice.copies, customer: twice.customer, instance: twice.instance, token: twice.token, eventId: twice.eventId },
    );
  }

  /**
   * The search ids received since `sinceMs` that `search_ids` lacks (its view's part of the insert was cut): their
   * clicks would count as unattributed, and the engagement pass would not compute their hours again.
   */
  async missingSearchIds(sinceMs: number): Promise<number> {
    const [row] = await this.ch.query<{ n: string }>(`SELECT toString(count()) AS n FROM (${this.missingIdsSql(sinceMs)})`);
    return Number(row.n);
  }

  /**
   * Records the missing ids as their view would have: each id's first copy and hours in `search_ids` (computed from
   * all its raw copies: a min and a set, which a repeat leaves as they are).
   */
  async repairSearchIds(sinceMs: number): Promise<void> {
    await this.ch.command(
      `INSERT INTO ${this.ch.table('search_ids')} (customer, instance, search_id, first, hours)
       SETTINGS insert_deduplication_token = '${randomUUID()}'
       ${searchIdsSelect((name) => this.ch.table(name), undefined, `(customer, instance, event_id) IN (${this.missingIdsSql(sinceMs)})`)}`,
    );
  }

  /**
   * The ids of searches (sent ids) and of the searches of clicks and conversions received since `sinceMs` that
   * `engagement_changes` lacks (their views' part of the insert was cut): the engagement pass would never compute
   * their hours again, and the figures computed ahead would miss them.
   */
  async missingChanges(sinceMs: number): Promise<number> {
    const [row] = await this.ch.query<{ n: string }>(`SELECT toString(count()) AS n FROM (${this.missingChangesSql(sinceMs)})`);
    return Number(row.n);
  }

  /** Records the missing changes now, so the next engagement pass computes their hours. */
  async repairChanges(sinceMs: number): Promise<void> {
    await this.ch.command(
      `INSERT INTO ${this.ch.table('engagement_changes')} (customer, instance, search_id, inserted_at)
       SETTINGS insert_deduplication_token = '${randomUUID()}'
       SELECT customer, instance, search_id, now64(3, 'UTC') FROM (${this.missingChangesSql(sinceMs)})`,
    );
  }

  /**
   * Per id, the newest row received since `sinceMs` against the newest change recorded for it: a change is recorded
   * by the insert that stores the row, after the row's time was taken (one clock: the check runs on the embedded
   * engine only), so a change older than the row is another insert's, and the row's was cut. Rows from Kafka are left
   * out: their receive time is the message's, another clock (a backlog's is old, a fast producer's ahead).
   */
  private missingChangesSql(sinceMs: number): string {
    const rows = `SELECT customer, instance, search_id, max(received_at) AS received FROM (
        SELECT customer, instance, event_id AS search_id, received_at FROM ${this.ch.table('search_events')}
        WHERE id_sent AND sign > 0 AND source != 'kafka' AND ${this.recent(sinceMs)}
        UNION ALL
        SELECT customer, instance, search_id, received_at FROM ${this.ch.table('interactions')}
        WHERE type IN ('click', 'conversion') AND object_id != '' AND source != 'kafka' AND ${this.recent(sinceMs, 'interactions')}
      ) GROUP BY customer, instance, search_id`;
    const changes = `SELECT customer, instance, search_id, max(inserted_at) AS inserted FROM ${this.ch.table('engagement_changes')}
      WHERE inserted_at >= fromUnixTimestamp64Milli(toInt64(${Math.trunc(sinceMs)}), 'UTC') GROUP BY customer, instance, search_id`;
    return `SELECT customer, instance, search_id FROM (${rows}) AS r LEFT JOIN (${changes}) AS c USING (customer, instance, search_id)
      WHERE c.inserted < r.received SETTINGS join_use_nulls = 0`;
  }

  private missingIdsSql(sinceMs: number): string {
    const recentIds = `SELECT DISTINCT customer, instance, event_id FROM ${this.ch.table('search_events')}
      WHERE id_sent AND sign > 0 AND ${this.recent(sinceMs)}`;
    return `${recentIds} AND (customer, instance, event_id) NOT IN (
      SELECT customer, instance, search_id FROM ${this.ch.table('search_ids')}
      WHERE (customer, instance, search_id) IN (${recentIds}))`;
  }

  /**
   * The buckets of `rollup` among those of `hours` whose total differs from what it counts: for an hourly rollup the
   * raw rows' sum(sign) of those hours; for a daily or weekly one the rollup a step finer (FINER), compared just
   * before, over the bucket's hours or days. So a run reads the raw rows of the suspect hours only, not of whole days
   * and weeks (`npm run bench:storage-check` measures a run; docs/benchmarks/methods.md).
   */
  async rollupDifferences(rollup: SignedRollup, hours: readonly number[]): Promise<RollupDifference[]> {
    const [column, expression] = bucketOf(rollup);
    const from = Math.min(...hours) / 1000;
    const to = Math.max(...hours) / 1000 + 3600;
    const buckets = `(SELECT DISTINCT ${expression.replace(/\bts\b/g, 'h')} FROM (SELECT arrayJoin({hours:Array(DateTime('UTC'))}) AS h))`;
    const finer = FINER[rollup.table];
    let counted: string;
    if (finer) {
      const [finerColumn] = bucketOf(rollupNamed(finer));
      const b = expression.replace(/\bts\b/g, finerColumn);
      const at = (time: number) => expression.replace(/\bts\b/g, `toDateTime(${time}, 'UTC')`);
      counted = `SELECT ${b} AS b, sum(searches) AS raw FROM ${this.ch.table(finer)}
        WHERE ${finerColumn} >= ${at(from)} AND ${finerColumn} < ${at(to)} + INTERVAL ${column === 'week' ? 7 : 1} DAY AND b IN ${buckets}
        GROUP BY b`;
    } else if (column === 'hour') {
      counted = `SELECT toStartOfHour(ts) AS b, sum(sign) AS raw FROM ${this.ch.table('search_events')}
        WHERE ts >= toDateTime(${from}, 'UTC') AND ts < toDateTime(${to}, 'UTC') AND b IN ${buckets} GROUP BY b`;
    } else {
      throw new Error(`${rollup.table}: a rollup of ${column}s needs a finer rollup to compare with (FINER)`);
    }
    const rows = await this.ch.query<{ bucket: string; difference: string }>(
      `SELECT toString(b) AS bucket, toString(raw - rolled) AS difference FROM (${counted}) AS r
       FULL OUTER JOIN (
         SELECT ${column} AS b, sum(searches) AS rolled FROM ${this.ch.table(rollup.table)} WHERE ${column} IN ${buckets} GROUP BY b
       ) AS t USING (b)
       WHERE raw != rolled
       SETTINGS join_use_nulls = 0`,
      { hours: hours.map((h) => h / 1000) },
    );
    return rows.map((r) => ({ table: rollup.table, bucket: r.bucket, difference: Number(r.difference) }));
  }

  /**
   * Makes one bucket of a rollup exact: per key, inserts the raw count minus what the rollup holds (negative where
   * it holds too much), with the raw newest time where the rollup keeps one (a max, which a repeat leaves as it is).
   */
  async repairBucket(rollup: SignedRollup, bucket: string): Promise<boolean> {
    const [column, expression] = bucketOf(rollup);
    const columns = rollup.keys.map(([c]) => c).join(', ');
    const raw = rawRollupRows(rollup, (name) => this.ch.table(name), `${expression} = {bucket:String}`);
    // The newest time, kept beside the count where the rollup keeps it (rawRollupRows' raw_last_ts): it cannot be
    // negated, so the raw one is written again (a max).
    const kept = rollup.aggregating ? ['last_ts'] : [];
    const keptSelect = kept.map((c) => `, raw_${c} AS ${c}`).join('');
    const select = `SELECT ${columns}, raw_searches - rolled_searches AS searches${keptSelect} FROM (${raw}) AS raw
      FULL OUTER JOIN (
        SELECT ${columns}, sum(searches) AS rolled_searches FROM ${this.ch.table(rollup.table)} WHERE ${column} = {bucket:String}
        GROUP BY ${columns}
      ) AS rolled USING (${columns})
      WHERE raw_searches != rolled_searches`;
    // Nothing to write: the bucket agrees with the raw rows, and the difference was in the finer rollup outside the
    // hours checked (not repaired, and not counted as a repair).
    const [{ keys }] = await this.ch.query<{ keys: string }>(
      `SELECT toString(count()) AS keys FROM (${select}) SETTINGS join_use_nulls = 0`,
      { bucket },
    );
    if (Number(keys) === 0) {
      return false;
    }
    await this.ch.command(
      `INSERT INTO ${this.ch.table(rollup.table)} (${[columns, 'searches', ...kept].join(', ')}) ${select}
       SETTINGS join_use_nulls = 0, insert_deduplication_token = '${randomUUID()}'`,
      { bucket },
    );
    return true;
  }
}
