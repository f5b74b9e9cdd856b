/**
 * The engine's side of the growth benchmark (scale.bench.ts), on the scale data set in DATA_DIR, while no app holds
 * it: the searches it holds and the newest, each table's rows and disk size (system.parts) and which of them a
 * materialised view fills, and RAW_RUNS timings (after one warm-up) of the raw scan the rollups replace for
 * GET /search-terms?since=30d: with the engine's threads, and in a lane with the threads the service gives an
 * analytics query (ANALYTICS_CONCURRENCY; 1 on 2 cores). Prints `RESULT {json}`.
 */
import { ClickHouseService, MIGRATIONS, MigratorService } from '@app/clickhouse';
import { loadConfig } from '@app/config';
import { analyticsLane } from '../apps/query/src/analytics/analytics-slots';
import { SCENARIOS, rawScan } from './query-scenarios';
import { derivedTables, tableSizes } from './scale-data';

export interface ScaleWorkerResult {
  events: number;
  /** The newest search (ms): the set's --end is 10 minutes later. */
  newest: number;
  tables: Array<{ table: string; rows: number; bytes: number; parts: number }>;
  /** The tables the materialised views over search_events and interactions fill. */
  derived: string[];
  /** Raw scan times in ms, sorted: with the engine's threads, and with an analytics lane's (`laneThreads`). */
  raw: number[];
  rawLane: number[];
  laneThreads: number;
}

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const ch = new ClickHouseService(config);
  try {
    await new MigratorService(ch, config).migrate(MIGRATIONS);
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
      for (let i = -1; i < runs; i++) {
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
