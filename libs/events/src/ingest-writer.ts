import { Injectable } from '@nestjs/common';
import { ClickHouseService } from '@app/clickhouse';
import type { RejectedEventRow } from '@app/contracts';
import { MetricsService } from '@app/metrics';

export interface IngestTarget {
  table: 'search_events' | 'documents';
  kind: RejectedEventRow['kind'];
  /** Appended to the batch token for this table's insert (rejected rows get `:rejected`). */
  tokenSuffix: string;
}

/**
 * The write shared by events and documents: rejected rows, then the accepted rows, with their metrics. With a
 * token, each table gets its own token derived from it, so a retried batch is dropped (rollups included).
 */
@Injectable()
export class IngestWriter {
  constructor(
    private readonly ch: ClickHouseService,
    private readonly metrics: MetricsService,
  ) {}

  async write<Row extends { source: string }>(target: IngestTarget, rows: readonly Row[], rejected: readonly RejectedEventRow[], token?: string): Promise<void> {
    await this.ch.insert('rejected_events', rejected, token && `${token}:rejected`);
    const stop = this.metrics.insertSeconds.startTimer({ table: target.table });
    await this.ch.insert(target.table, rows, token && `${token}:${target.tokenSuffix}`);
    stop();
    this.metrics.batchSize.observe({ table: target.table }, rows.length);
    if (rows.length > 0) this.metrics.itemsAccepted.inc({ kind: target.kind, source: rows[0].source }, rows.length);
    if (rejected.length > 0) this.metrics.rejected(target.kind, rejected[0].source, rejected.map((r) => r.reason));
  }
}
