import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Folds a rejection reason into a bounded label: field names and numbers must not create new series. */
export function reasonLabel(reason: string): string {
  return reason
    .replace(/^unknown field .*/, 'unknown field')
    .replace(/\d+/g, 'N')
    .slice(0, 80);
}

/** The service's Prometheus metrics (one registry per application, so tests and processes do not share). */
@Injectable()
export class MetricsService {
  readonly registry = new Registry();
  readonly itemsAccepted = new Counter({
    name: 'ingest_items_accepted_total',
    help: 'Events and documents accepted',
    labelNames: ['kind', 'source'],
    registers: [this.registry],
  });
  readonly itemsRejected = new Counter({
    name: 'ingest_items_rejected_total',
    help: 'Events and documents rejected, by reason',
    labelNames: ['kind', 'source', 'reason'],
    registers: [this.registry],
  });
  readonly duplicateOffsets = new Counter({
    name: 'ingest_duplicate_offsets_total',
    help: 'Kafka offsets found stored more than once (each then compensated so that every answer counts it once)',
    labelNames: ['topic'],
    registers: [this.registry],
  });
  readonly storageRepairs = new Counter({
    name: 'storage_repairs_total',
    help: 'Repairs of what a half-done insert left (a row stored twice by a retry, a rollup bucket that differed from its raw rows)',
    labelNames: ['table'],
    registers: [this.registry],
  });
  readonly storageCheckSeconds = new Gauge({
    name: 'storage_check_last_run_seconds',
    help: 'How long the last storage check took (s): it reads the rows received since the run before',
    registers: [this.registry],
  });
  readonly consumerLag = new Gauge({
    name: 'ingest_consumer_lag',
    help: "Messages waiting per assigned partition: the high watermark minus the group's committed offset (probed every 2 s)",
    labelNames: ['topic', 'partition'],
    registers: [this.registry],
  });
  readonly batchSize = new Histogram({
    name: 'ingest_batch_size',
    help: 'Rows per insert',
    labelNames: ['table'],
    buckets: [1, 10, 100, 1000, 5000, 20000, 50000, 100000, 200000],
    registers: [this.registry],
  });
  readonly insertSeconds = new Histogram({
    name: 'clickhouse_insert_seconds',
    help: 'Duration of inserts',
    labelNames: ['table'],
    buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  /** Every INSERT statement the process sends to storage, counted where it is sent (libs/clickhouse, see libs/intake). */
  readonly storageInserts = new Counter({
    name: 'storage_inserts_total',
    help: 'INSERT statements sent to storage, by table (the rows materialised views write into their own tables not counted)',
    labelNames: ['table'],
    registers: [this.registry],
  });
  readonly webhookDeliveries = new Counter({
    name: 'webhook_deliveries_total',
    help: 'Webhook calls by outcome',
    labelNames: ['outcome'],
    registers: [this.registry],
  });
  readonly httpSeconds = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP requests by route and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [this.registry],
  });

  /** The analytics answer cache (SEARCH_TERMS_CACHE_MS): hit rate = hits / (hits + misses); with the cache off every request is a miss. */
  readonly answerCacheHits = new Counter({
    name: 'search_terms_cache_hits_total',
    help: 'Analytics answers served from the answer cache, by answer (search-terms, term, stats)',
    labelNames: ['answer'],
    registers: [this.registry],
  });
  readonly answerCacheMisses = new Counter({
    name: 'search_terms_cache_misses_total',
    help: 'Analytics answers computed from storage (not in the answer cache, or the cache off), by answer',
    labelNames: ['answer'],
    registers: [this.registry],
  });

  /** The engagement refresh (ENGAGEMENT_REFRESH_MS): how far behind the figures computed ahead are, and its work. */
  readonly engagementPassSeconds = new Gauge({
    name: 'engagement_refresh_last_pass_seconds',
    help: 'Start of the last complete pass computing engagement figures ahead (Unix time): answers show what was stored before it',
    registers: [this.registry],
  });
  readonly engagementHours = new Counter({
    name: 'engagement_refresh_hours_total',
    help: 'Hours of engagement figures computed ahead (per instance), over all passes',
    registers: [this.registry],
  });
  readonly engagementSpans = new Counter({
    name: 'engagement_refresh_spans_total',
    help: "Spans built (every phrase's engagement figures over the last 30 days' settled hours, per instance), over all passes",
    registers: [this.registry],
  });
  readonly engagementSpanFailures = new Counter({
    name: 'engagement_refresh_span_failures_total',
    help: 'Spans whose build failed (left to the next pass; the lists ordered by the figures add up hours meanwhile)',
    registers: [this.registry],
  });
  readonly dimensionPassSeconds = new Gauge({
    name: 'dimension_refresh_last_pass_seconds',
    help: 'Start of the last complete pass computing filters, users, countries and tags ahead (Unix time)',
    registers: [this.registry],
  });
  readonly dimensionHours = new Counter({
    name: 'dimension_refresh_hours_total',
    help: 'Hours of filters, users, countries and tags computed ahead (per instance), over all passes',
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  rejected(kind: string, source: string, reasons: readonly string[]): void {
    for (const reason of reasons) {
      this.itemsRejected.inc({ kind, source, reason: reasonLabel(reason) });
    }
  }
}
