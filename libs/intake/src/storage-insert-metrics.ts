import { Injectable } from '@nestjs/common';
import { ClickHouseService } from '@app/clickhouse';
import { MetricsService } from '@app/metrics';

/**
 * `storage_inserts_total{table}`: every INSERT statement this process sends, by table (ClickHouseService.onInsert).
 * Wired here, in the one library that has both storage and the metrics (libs/clickhouse imports no metrics), and in
 * the constructor: providers are made before any module's init, so the migrations' inserts count too.
 */
@Injectable()
export class StorageInsertMetrics {
  constructor(ch: ClickHouseService, metrics: MetricsService) {
    ch.onInsert((table) => metrics.storageInserts.inc({ table }));
  }
}
