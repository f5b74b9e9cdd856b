import { Injectable } from '@nestjs/common';
import { ClickHouseService, SEARCH_ROLLUPS } from '@app/clickhouse';

export interface StoredCounts {
  events: number;
  distinctEvents: number;
  rollup: number;
  rejected: number;
}

/** What is stored of a customer's search events (the CLI's `stats`; operators and tests). */
@Injectable()
export class SearchEventsRepository {
  constructor(private readonly ch: ClickHouseService) {}

  /**
   * What is stored for a customer: raw events (each row counts `sign` times: a Kafka offset stored twice is
   * compensated by a row with a negative sign) and distinct ids, the rollup's sum, rejected events.
   */
  async counts(customer: string): Promise<StoredCounts> {
    const [row] = await this.ch.query<Record<'events' | 'distinct_events' | 'rollup' | 'rejected', string | number>>(
      `SELECT
         (SELECT sum(sign) FROM ${this.ch.table('search_events')} WHERE customer = {c:String}) AS events,
         (SELECT uniqExact(event_id) FROM ${this.ch.table('search_events')} WHERE customer = {c:String}) AS distinct_events,
         (SELECT sum(searches) FROM ${this.ch.table('search_terms_hourly')} WHERE customer = {c:String}) AS rollup,
         (SELECT count() FROM ${this.ch.table('rejected_events')} WHERE customer = {c:String} AND kind = 'search-event') AS rejected`,
      { c: customer },
    );
    return {
      events: Number(row.events),
      distinctEvents: Number(row.distinct_events),
      rollup: Number(row.rollup),
      rejected: Number(row.rejected),
    };
  }

  /** The raw count (sum(sign)) of a customer's search events beside what each rollup of them counts. */
  async rollupTotals(customer: string): Promise<{ events: number; rollups: Record<string, number> }> {
    const sums = SEARCH_ROLLUPS.map((r, i) => `(SELECT sum(searches) FROM ${this.ch.table(r.table)} WHERE customer = {c:String}) AS r${i}`);
    const [row] = await this.ch.query<Record<string, string | number>>(
      `SELECT (SELECT sum(sign) FROM ${this.ch.table('search_events')} WHERE customer = {c:String}) AS events, ${sums.join(', ')}`,
      { c: customer },
    );
    return { events: Number(row.events), rollups: Object.fromEntries(SEARCH_ROLLUPS.map((r, i) => [r.table, Number(row[`r${i}`])])) };
  }
}
