/**
 * Loads the query benchmark's data set into an embedded engine (skipped when DATA_DIR already holds it) and times
 * the raw-events scan that the rollups replace. Prints `RESULT {json}`.
 */
import { ClickHouseService, MIGRATIONS, MigratorService } from '@app/clickhouse';
import { loadConfig } from '@app/config';
import { loadEvents, loadInteractions, storedEvents } from './load-events';
import { quantile } from './proc';
import { SCENARIOS, rawScan } from './query-scenarios';

const count = Number(process.env.BENCH_EVENTS ?? 10_000_000);

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const ch = new ClickHouseService(config);
  await new MigratorService(ch, config).migrate(MIGRATIONS);
  const stored = await storedEvents(ch, 'demo');
  let loadSeconds = 0;
  if (stored < count) {
    const started = performance.now();
    await loadEvents(ch, 'demo', count);
    await ch.command(`OPTIMIZE TABLE ${ch.table('search_terms_daily')} FINAL`);
    loadSeconds = (performance.now() - started) / 1000;
  }
  await loadInteractions(ch, 'demo', count);
  const [stats] = await ch.query<Record<string, string | number>>(
    `SELECT (SELECT count() FROM ${ch.table('search_events')}) AS events,
            (SELECT count() FROM ${ch.table('search_terms_hourly')}) AS hourly_rows,
            (SELECT count() FROM ${ch.table('search_terms_daily')}) AS daily_rows,
            (SELECT uniqExact(phrase) FROM ${ch.table('search_events')}) AS phrases,
            (SELECT countIf(id_sent) FROM ${ch.table('search_events')}) AS searches_with_id,
            (SELECT countIf(type = 'click') FROM ${ch.table('interactions')}) AS clicks,
            (SELECT countIf(type = 'conversion') FROM ${ch.table('interactions')}) AS conversions`,
  );

  // The raw scan the rollups replace: the same answer from search_events.
  const raw: Record<string, { p50: number; p95: number }> = {};
  for (const s of process.env.BENCH_SKIP_RAW ? [] : SCENARIOS) {
    const scan = rawScan(ch.table('search_events'), s);
    const times: number[] = [];
    for (let i = 0; i < 10; i++) {
      const t = performance.now();
      await ch.query(scan.sql, scan.params);
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    raw[s.name] = { p50: Math.round(quantile(times, 0.5)), p95: Math.round(quantile(times, 0.95)) };
  }
  process.stdout.write(`RESULT ${JSON.stringify({ loadSeconds, stats, raw })}\n`);
  await ch.onApplicationShutdown();
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exit(1);
});
