/**
 * The engine's side of the growth benchmark (scale.bench.ts), on the scale data set in DATA_DIR, while no app holds
 * it: the upgrade, when the set was written by an earlier release (the pending migrations' time, the process's peak
 * RSS after them, and the tables' rows and sizes before them), the searches it holds and the newest, each table's
 * rows and disk size (system.parts) and which of them a materialised view fills, and RAW_RUNS timings (after one
 * warm-up) of the raw scan the rollups replace for GET /search-terms?since=30d: with the engine's threads, and in a
 * lane with the threads the service gives an analytics query (ANALYTICS_CONCURRENCY; 1 on 2 cores). Prints
 * `RESULT {json}`.
 */
import { ClickHouseService, MIGRATIONS, MigratorService } from '@app/clickhouse';
import { loadConfig } from '@app/config';
import { pendingMigrations } from '../libs/clickhouse/src/pending-migrations';
import { analyticsLane } from '../apps/query/src/analytics/analytics-slots';
import { SCENARIOS, rawScan } from './query-scenarios';
import { peakRssMb, rssMb } from './proc';
import { derivedTables, tableSizes } from './scale-data';

/** The migrations a set written by an earlier release needed, what they took, and the tables before them. */
export interface ScaleUpgrade {
  migrations: string[];
  seconds: number;
  /** The worker's RSS before the migrations (the engine loaded) and its peak (VmHWM) right after them, in MB. */
  rssBeforeMb: number;
  peakRssMb: number;
  tablesBefore: ScaleWorkerResult['tables'];
}

export interface ScaleWorkerResult {
  events: number;
  /** The newest search (ms): the set's --end is 10 minutes later. */
  newest: number;
  tables: Array<{ table: string; rows: number; bytes: number; parts: number }>;
  /** The tables the materialised views over search_events and interactions fill. */
  derived: string[];
  /** Raw scan times in ms, sorted: with the engine's threads, and with an analytics lane's (`laneThreads`); none with RAW_RUNS=0. */
  raw: number[];
  rawLane: number[];
  laneThreads: number;
  upgrade?: ScaleUpgrade;
}

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const ch = new ClickHouseService(config);
  try {
    const pending = await pendingMigrations(ch, MIGRATIONS);
    // A set written by an earlier release (some migrations applied, not all): its upgrade is measured.
    const earlier = pending.length > 0 && pending.length < MIGRATIONS.length;
    const tablesBefore = earlier ? await tableSizes(ch) : [];
    const rssBeforeMb = Math.round(rssMb(process.pid));
    const started = performance.now();
    await new MigratorService(ch, config).migrate(MIGRATIONS);
    const upgrade: ScaleUpgrade | undefined = earlier
      ? {
          migrations: pending.map((m) => m.id),
          seconds: (performance.now() - started) / 1000,
          rssBeforeMb,
          peakRssMb: peakRssMb(process.pid),
          tablesBefore,
        }
      : undefined;
    const [{ events, newest }] = await ch.query<{ events: string; newest: string }>(
      `SELECT count() AS events, toUnixTimestamp64Milli(max(ts)) AS newest FROM ${ch.table('search_events')}`,
    );
    const scan = rawScan(
      ch.table('search_events'),
      SCENARIOS.find((s) => s.name === 'since=30d')!,
    );
    const runs = Number(process.env.RAW_RUNS ?? 10);
    const timed = async (scanOnce: () => Promise<unknown>) => {
      const times: number[] = [];
      // RAW_RUNS=0 (the upgrade alone): no scan, not even the warm-up.
      for (let i = runs > 0 ? -1 : 0; i < runs; i++) {
        const t = performance.now();
        await scanOnce();
        if (i >= 0) {
          times.push(performance.now() - t);
        }
      }
      return times.sort((a, b) => a - b);
    };
    const lane = analyticsLane(config.analyticsConcurrency);
    const raw = await timed(() => ch.query(scan.sql, scan.params));
    const rawLane = await timed(() => ch.inLane(() => ch.query(scan.sql, scan.params), lane));
    const result: ScaleWorkerResult = {
      events: Number(events),
      newest: Number(newest),
      tables: await tableSizes(ch),
      derived: await derivedTables(ch),
      raw,
      rawLane,
      laneThreads: lane.maxThreads,
      upgrade,
    };
    process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
  } finally {
    await ch.onApplicationShutdown();
  }
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exit(1);
});
