import { Injectable } from '@nestjs/common';
import { ClickHouseService } from '@app/clickhouse';
import type { RejectedEventRow, SearchEventRow } from '@app/contracts';
import { NotificationsRepository } from '@app/notifications';
import { DataVersions } from './data-versions';
import { IngestWriter, type Refused } from './ingest-writer';

export interface StoredCounts {
  events: number;
  distinctEvents: number;
  rollup: number;
  rejected: number;
}

/** Every ClickHouse statement about search events written by the intake and the ingest app. */
@Injectable()
export class SearchEventsRepository {
  constructor(
    private readonly ch: ClickHouseService,
    private readonly notifications: NotificationsRepository,
    private readonly versions: DataVersions,
    private readonly writer: IngestWriter,
  ) {}

  /**
   * Writes accepted and rejected rows (IngestWriter); rejected events also leave a notification for their
   * instance (at most one per instance per hour), and this process's answer caches learn of the change.
   */
  async write(events: readonly SearchEventRow[], rejected: readonly RejectedEventRow[], token?: string): Promise<Refused<SearchEventRow>> {
    const refused = await this.writer.write({ table: 'search_events', kind: 'search-event', tokenSuffix: 'events' }, events, rejected, token);
    const touched = new Map(events.map((e) => [`${e.customer}\u0000${e.instance}`, e]));
    for (const e of touched.values()) this.versions.bump(e.customer, e.instance);
    await this.notifyRejected(rejected);
    return refused;
  }

  private async notifyRejected(rejected: readonly RejectedEventRow[]): Promise<void> {
    const byInstance = new Map<string, RejectedEventRow[]>();
    for (const r of rejected) {
      if (!r.customer || !r.instance) continue;
      const key = `${r.customer}\u0000${r.instance}`;
      const rows = byInstance.get(key);
      if (rows) rows.push(r);
      else byInstance.set(key, [r]);
    }
    for (const rows of byInstance.values()) {
      const { customer, instance, reason } = rows[0];
      await this.notifications.recordThrottled(customer, instance, 'events-rejected', `Search events were rejected, e.g.: ${reason}`, {
        rejectedInBatch: rows.length,
        example: reason,
      });
    }
  }

  /** What is stored for a customer: raw events (and distinct ids), the rollup's sum, rejected events. */
  async counts(customer: string): Promise<StoredCounts> {
    const [row] = await this.ch.query<Record<'events' | 'distinct_events' | 'rollup' | 'rejected', string | number>>(
      `SELECT
         (SELECT count() FROM ${this.ch.table('search_events')} WHERE customer = {c:String}) AS events,
         (SELECT uniqExact(event_id) FROM ${this.ch.table('search_events')} WHERE customer = {c:String}) AS distinct_events,
         (SELECT sum(searches) FROM ${this.ch.table('search_terms_hourly')} WHERE customer = {c:String}) AS rollup,
         (SELECT count() FROM ${this.ch.table('rejected_events')} WHERE customer = {c:String} AND kind = 'search-event') AS rejected`,
      { c: customer },
    );
    return { events: Number(row.events), distinctEvents: Number(row.distinct_events), rollup: Number(row.rollup), rejected: Number(row.rejected) };
  }
}
