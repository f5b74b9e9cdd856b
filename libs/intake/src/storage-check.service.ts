import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { ClickHouseService, SEARCH_ROLLUPS } from '@app/clickhouse';
import { AppConfig } from '@app/config';
import { MetricsService } from '@app/metrics';
import { StorageCheckRepository } from './storage-check.repository';

/** How far back a check reads before the previous one began: an insert begun then may have ended after it read. */
const OVERLAP_MS = 5 * 60_000;

/**
 * Finds what a half-done insert left and makes every table exact again (docs/architecture.md, "A kill at any
 * moment"). An insert into search_events is not atomic: the engine writes the table, then each view, so a process
 * killed in between leaves the raw rows with some rollups and not others, and a client's retry of that request could
 * store its rows again. The check runs at every start, before the app serves (the last inserts before a kill are the
 * newest rows), and every STORAGE_CHECK_MS after, over the rows received since the run before:
 * 1. rows a retry stored again under one retry token get one compensating row each (sign = first - copies);
 * 2. search ids that `search_ids` lacks are recorded there, and the ids of searches and of clicks and conversions
 *    that `engagement_changes` lacks are recorded there (so the engagement pass computes their hours);
 * 3. every rollup of search_events is compared with the raw rows (sum(sign)) per bucket of the suspect hours, and a
 *    bucket that differs is made exact per key, in that table alone (a compensating row through every view would make
 *    the tables that were never written under-count).
 * Each repair counts in storage_repairs_total{table} and logs one warning with the table, the bucket and the
 * difference. So the tables it covers are exact within 2 x STORAGE_CHECK_MS of the half-done insert, and before the
 * app serves after a start.
 */
@Injectable()
export class StorageCheck implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('StorageCheck');
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  /** Where the next run reads from (ms): the previous run's start, less OVERLAP_MS. */
  private since?: number;

  constructor(
    private readonly repository: StorageCheckRepository,
    private readonly ch: ClickHouseService,
    private readonly config: AppConfig,
    private readonly metrics: MetricsService,
  ) {}

  /**
   * The check at start, awaited: the app serves only once what a kill left is repaired. On the embedded engine only
   * (decision 0071): there one process holds the data directory, and its inserts (from the intake or the Kafka
   * consumer) and every statement of the check run on its main connection, one after another, so no insert is half
   * visible to the check. On a server another process's insert can be, between its table and its views, and a repair
   * then would count it twice once its views land.
   */
  async onApplicationBootstrap(): Promise<void> {
    if (this.config.storageCheckMs === 0 || !this.ch.embedded) {
      return;
    }
    const newest = await this.repository.newestReceived();
    this.since = newest === undefined ? Date.now() : newest - 2 * this.config.storageCheckMs - OVERLAP_MS;
    await this.run();
    this.timer = setInterval(() => void this.run(), this.config.storageCheckMs);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** One check (shared by callers while it runs); a failure is logged, and the next run reads from the same time. */
  run(): Promise<void> {
    this.running ??= this.check()
      .catch((err: unknown) => {
        this.logger.warn(`storage check failed (${(err as Error).message}); it runs again in ${this.config.storageCheckMs} ms`);
      })
      .finally(() => (this.running = undefined));
    return this.running;
  }

  private async check(): Promise<void> {
    const began = Date.now();
    const since = this.since ?? began - OVERLAP_MS;
    for (const twice of await this.repository.storedTwice(since)) {
      await this.repository.compensate(twice);
      this.repaired('search_events', `event ${twice.eventId} of retry token ${twice.token}`, twice.first - twice.copies);
    }
    const missing = await this.repository.missingSearchIds(since);
    if (missing > 0) {
      await this.repository.repairSearchIds(since);
      this.repaired('search_ids', 'the ids received since the check before', missing);
    }
    const unchanged = await this.repository.missingChanges(since);
    if (unchanged > 0) {
      await this.repository.repairChanges(since);
      this.repaired('engagement_changes', 'the ids received since the check before', unchanged);
    }
    const hours = await this.repository.suspectHours(since);
    if (hours.length > 0) {
      for (const rollup of SEARCH_ROLLUPS) {
        for (const { bucket, difference } of await this.repository.rollupDifferences(rollup, hours)) {
          if (await this.repository.repairBucket(rollup, bucket)) {
            this.repaired(rollup.table, bucket, difference);
          }
        }
      }
    }
    this.since = began - OVERLAP_MS;
    this.metrics.storageCheckSeconds.set((Date.now() - began) / 1000);
  }

  private repaired(table: string, hour: string, difference: number): void {
    this.metrics.storageRepairs.inc({ table });
    this.logger.warn({ table, hour, difference }, `storage check: ${table} repaired at ${hour} by ${difference}`);
  }
}
