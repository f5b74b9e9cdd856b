/**
 * npm run bench:scale-data -- --size 1M|10M|100M --dir <data dir> [--seed 31] [--end <ISO time or epoch ms>]
 * [--chunk 5000000]: builds a scale data set (issue 31; docs/benchmarks/methods.md, "Scale data sets") into a data
 * directory, database `bench` (CLICKHOUSE_DATABASE; on a server with CLICKHOUSE_URL), for the customer
 * SERVICE_CUSTOMER (`demo`) and the first of SERVICE_INSTANCES (`live`): the searches of the 30 days before --end
 * (default: now, to the minute) and their clicks and conversions, generated inside the engine (INSERT ... SELECT
 * FROM numbers, --chunk searches per statement) with every rollup filled by the service's own materialised views.
 * Prints the time taken and each table's rows and disk size.
 */
import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import { ClickHouseService, MIGRATIONS, MigratorService } from '@app/clickhouse';
import { loadConfig } from '@app/config';
import { normalisePhrase } from '@app/contracts';
import { tableRow } from './proc';
import { INTERACTION_COLUMNS, SEARCH_EVENT_COLUMNS, interactionsSql, searchesSql, zipfRows, type ScaleOptions } from './scale-events';

/** The table of the Zipf lookup (zipfRows), in the data set's database while it is generated. */
const ZIPF_TABLE = 'scale_zipf';
/** Searches per INSERT ... SELECT: memory stays bounded whatever the size. */
export const DEFAULT_CHUNK = 5_000_000;

export interface GenerateOptions extends ScaleOptions {
  searches: number;
  chunk?: number;
}

async function insertSelect(
  ch: ClickHouseService,
  table: string,
  columns: ReadonlyArray<readonly [string, string]>,
  select: string,
  o: ScaleOptions,
): Promise<void> {
  // A fresh deduplication token: through chdb the last insert's token stays in force for the session. No merge on
  // insert: each view groups its block by the whole sorting key of its table, so there is nothing to merge, and
  // looking for it cost a third of the statement's CPU (docs/decisions/0063-scale-data-sets.md).
  await ch.command(
    `INSERT INTO ${ch.table(table)} (${columns.map(([c]) => `\`${c}\``).join(', ')})
     SELECT ${columns.map(([, value]) => value).join(',\n  ')}
     FROM (${select})
     SETTINGS optimize_on_insert = 0, insert_deduplication_token = '${randomUUID()}'`,
    { customer: o.customer, instance: o.instance },
  );
}

/** Runs `work` with the Zipf lookup table (zipfRows) in the database, dropped afterwards. */
export async function withZipfTable<T>(ch: ClickHouseService, work: (zipf: string) => Promise<T>): Promise<T> {
  const zipf = ch.table(ZIPF_TABLE);
  await ch.command(`DROP TABLE IF EXISTS ${zipf}`);
  await ch.command(`CREATE TABLE ${zipf} (k UInt8, lo UInt64, rank UInt32) ENGINE = Memory`);
  try {
    // CSV in one stream (200,000 rows): fast on both storages, and no JSON objects to build.
    const csv = zipfRows().map((r) => `${r.k},${r.lo},${r.rank}\n`);
    await ch.client.insert({ table: zipf, values: Readable.from([Buffer.from(csv.join(''))], { objectMode: false }), format: 'CSV' });
    return await work(zipf);
  } finally {
    await ch.command(`DROP TABLE IF EXISTS ${zipf}`);
  }
}

/**
 * Searches 0..searches-1 and their interactions into `search_events` and `interactions`, `chunk` searches per
 * statement; the materialised views fill the rollups and `search_ids` as they do for the service's inserts.
 */
export async function generateScaleData(ch: ClickHouseService, o: GenerateOptions, progress?: (done: number) => void): Promise<void> {
  // The SQL writes `phrase` as the normalised form of the raw phrase: check that it is.
  for (const raw of ['Phrase 7', 'phrase 8']) {
    if (normalisePhrase(raw) !== raw.toLowerCase()) {
      throw new Error(`the phrases of the scale data sets no longer normalise to their lower case (${raw})`);
    }
  }
  await withZipfTable(ch, async (zipf) => {
    const chunk = o.chunk ?? DEFAULT_CHUNK;
    for (let from = 0; from < o.searches; from += chunk) {
      const count = Math.min(chunk, o.searches - from);
      await insertSelect(ch, 'search_events', SEARCH_EVENT_COLUMNS, searchesSql(o, from, count, zipf), o);
      await insertSelect(ch, 'interactions', INTERACTION_COLUMNS, interactionsSql(o, searchesSql(o, from, count, zipf, true)), o);
      progress?.(from + count);
    }
  });
}

/** The tables a materialised view over `search_events` or `interactions` writes to (the rollups, search_ids, ...). */
export async function derivedTables(ch: ClickHouseService): Promise<string[]> {
  const views = await ch.query<{ query: string }>(
    `SELECT create_table_query AS query FROM system.tables WHERE database = {db:String} AND name IN (
       SELECT arrayJoin(dependencies_table) FROM system.tables WHERE database = {db:String} AND name IN ('search_events', 'interactions'))`,
    { db: ch.database },
  );
  const targets = views.map((v) => /\bTO\s+(?:`?[^\s.`]+`?\.)?`?(\w+)`?/.exec(v.query)?.[1] ?? '');
  if (targets.includes('')) {
    throw new Error('a materialised view over search_events or interactions has no TO table');
  }
  return [...new Set(targets)].sort();
}

/** Each table of the data set's database: its rows, bytes on disk and parts (active parts in system.parts), largest first. */
export async function tableSizes(ch: ClickHouseService): Promise<Array<{ table: string; rows: number; bytes: number; parts: number }>> {
  const parts = await ch.query<{ table: string; rows: string; bytes: string; parts: string }>(
    `SELECT table, sum(rows) AS rows, sum(bytes_on_disk) AS bytes, count() AS parts FROM system.parts
     WHERE database = {db:String} AND active GROUP BY table ORDER BY sum(bytes_on_disk) DESC`,
    { db: ch.database },
  );
  return parts.map((p) => ({ table: p.table, rows: Number(p.rows), bytes: Number(p.bytes), parts: Number(p.parts) }));
}

export const SIZES: Record<string, number> = { '1M': 1_000_000, '10M': 10_000_000, '100M': 100_000_000 };

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const size = option(args, 'size') ?? '';
  const dir = option(args, 'dir');
  const searches = SIZES[size] ?? (/^\d+$/.test(size) ? Number(size) : NaN);
  if (!dir || !Number.isSafeInteger(searches) || searches <= 0) {
    throw new Error('usage: npm run bench:scale-data -- --size 1M|10M|100M --dir <data dir> [--seed n] [--end time] [--chunk n]');
  }
  const endText = option(args, 'end');
  const end =
    endText === undefined ? Math.floor(Date.now() / 60_000) * 60_000 : /^\d+$/.test(endText) ? Number(endText) : Date.parse(endText);
  const config = loadConfig({
    CLICKHOUSE_DATABASE: 'bench',
    SERVICE_BASIC_AUTH: 'bench:bench-password-1',
    ...process.env,
    DATA_DIR: path.resolve(dir),
  });
  const o: GenerateOptions = {
    searches,
    seed: Number(option(args, 'seed') ?? 31),
    end,
    customer: config.customer,
    instance: config.instances[0],
    chunk: Number(option(args, 'chunk') ?? DEFAULT_CHUNK),
  };
  if (!Number.isFinite(end) || !Number.isSafeInteger(o.seed) || o.seed < 0 || !Number.isSafeInteger(o.chunk) || o.chunk! <= 0) {
    throw new Error('--end must be an ISO time or epoch ms, --seed an integer >= 0, --chunk an integer > 0');
  }
  const ch = new ClickHouseService(config);
  try {
    await new MigratorService(ch, config).migrate(MIGRATIONS);
    const [{ c }] = await ch.query<{ c: string }>(`SELECT count() AS c FROM ${ch.table('search_events')}`);
    if (Number(c) > 0) {
      throw new Error(`${dir} (database ${ch.database}) already holds ${c} search events: choose an empty data directory`);
    }
    process.stderr.write(`generating ${searches.toLocaleString('en')} searches, seed ${o.seed}, ending ${new Date(end).toISOString()}\n`);
    const started = performance.now();
    await generateScaleData(ch, o, (done) =>
      process.stderr.write(`  ${done.toLocaleString('en')} searches, ${((performance.now() - started) / 1000).toFixed(1)} s\n`),
    );
    const generated = (performance.now() - started) / 1000;
    // What background merges do in time: each rollup merged to one row per key (as query-worker.ts does for the daily one).
    const merging = performance.now();
    const derived = await derivedTables(ch);
    for (const table of derived) {
      await ch.command(`OPTIMIZE TABLE ${ch.table(table)} FINAL`);
    }
    const optimised = (performance.now() - merging) / 1000;
    const parts = await tableSizes(ch);
    const lines = [
      '',
      `## Scale data set ${size} (${searches.toLocaleString('en')} searches, seed ${o.seed}, 30 days to ${new Date(end).toISOString()})`,
      '',
      `Generated in ${generated.toFixed(1)} s; rollups merged (OPTIMIZE FINAL: ${derived.join(', ')}) in ${optimised.toFixed(1)} s.`,
      '',
      tableRow('table', 'rows', 'MB on disk', 'parts'),
      '|---|---|---|---|',
      ...parts.map((p) => tableRow(p.table, p.rows.toLocaleString('en'), (p.bytes / 1e6).toFixed(1), p.parts)),
      '',
    ];
    process.stdout.write(lines.join('\n'));
  } finally {
    await ch.onApplicationShutdown();
  }
}

if (require.main === module) {
  main().catch((err) => {
    process.stderr.write(`${(err as Error).stack}\n`);
    process.exit(1);
  });
}
