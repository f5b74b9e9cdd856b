/**
 * The events of the intake benchmark in storage, counted exactly after its run (bench/intake.bench.ts): the service
 * stopped (the embedded engine's DATA_DIR belongs to one process) or its server still up (CLICKHOUSE_URL). Each event
 * has the phrase `<PREFIX> <scenario> <index>`, or (the mixed mode, bench/intake-mixed.ts: phrases of the data set) a
 * session id naming them; a click (bench/intake-clicks.ts) has such an object id. Prints `RESULT {"phrases": {scenario:
 * {index: times stored}}, "sessions": {session_hash: times stored}}`, where a search event's row counts sum(sign)
 * times (docs/analysts.md). The benchmarks' data sets have no sessions.
 */
import { ClickHouseService } from '@app/clickhouse';
import { loadConfig } from '@app/config';
import { PHRASE_PREFIX } from './intake-events';

async function main(): Promise<void> {
  const ch = new ClickHouseService(loadConfig(process.env));
  const rows = await ch.query<{ phrase: string; stored: string }>(
    `SELECT raw_phrase AS phrase, toString(sum(sign)) AS stored FROM ${ch.table('search_events')}
     WHERE startsWith(raw_phrase, {prefix:String}) GROUP BY raw_phrase`,
    { prefix: `${PHRASE_PREFIX} ` },
  );
  // Clicks (bench/intake-clicks.ts) name their scenario and number in their object id, stored once per row.
  const clicks = await ch.query<{ phrase: string; stored: string }>(
    `SELECT object_id AS phrase, toString(count()) AS stored FROM ${ch.table('interactions')}
     WHERE startsWith(object_id, {prefix:String}) GROUP BY object_id`,
    { prefix: `${PHRASE_PREFIX} ` },
  );
  const stored: Record<string, Record<string, number>> = {};
  for (const { phrase, stored: times } of [...rows, ...clicks]) {
    const [, scenario, index] = phrase.split(' ');
    (stored[scenario] ??= {})[index] = Number(times);
  }
  const sessions = await ch.query<{ session: string; stored: string }>(
    `SELECT session_hash AS session, toString(sum(sign)) AS stored FROM ${ch.table('search_events')}
     WHERE session_hash != '' GROUP BY session_hash`,
  );
  const bySession = Object.fromEntries(sessions.map((r) => [r.session, Number(r.stored)]));
  process.stdout.write(`RESULT ${JSON.stringify({ phrases: stored, sessions: bySession })}\n`);
  await ch.onApplicationShutdown();
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exit(1);
});
