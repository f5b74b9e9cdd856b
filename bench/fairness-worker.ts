/**
 * Loads the fairness benchmark's data set (bench/fairness.bench.ts) into an embedded engine: the events of the
 * customer that floods and of the one that measures, each skipped when already stored. Prints `RESULT {json}`.
 */
import { ClickHouseService, MIGRATIONS, MigratorService } from '@app/clickhouse';
import { loadConfig } from '@app/config';
import { loadEvents, storedEvents } from './load-events';

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const ch = new ClickHouseService(config);
  await new MigratorService(ch, config).migrate(MIGRATIONS);
  const wanted = JSON.parse(process.env.FAIRNESS_EVENTS ?? '{}') as Record<string, number>;
  const stored: Record<string, number> = {};
  for (const [customer, count] of Object.entries(wanted)) {
    if ((await storedEvents(ch, customer)) < count) {
      // A seed per customer: the two logs are different, as two shops' are.
      await loadEvents(ch, customer, count, customer.length * 7919);
      await ch.command(`OPTIMIZE TABLE ${ch.table('search_terms_daily')} FINAL`);
    }
    stored[customer] = await storedEvents(ch, customer);
  }
  process.stdout.write(`RESULT ${JSON.stringify(stored)}\n`);
  await ch.onApplicationShutdown();
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exit(1);
});
