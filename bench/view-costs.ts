/**
 * npm run bench:views [-- --size=170 --inserts=50 --rounds=5]: what one insert into search_events costs the engine,
 * view by view (docs/benchmarks/methods.md, "The cost of an insert, view by view"). The HTTP intake writes about 10
 * inserts a second whatever the request rate (docs/decisions/0039-one-insert-for-many-requests.md), so its capacity
 * is what the engine spends per insert: the insert itself, every materialised view on search_events (each runs its
 * SELECT over the inserted rows and writes a part of its table), and the background merges of those parts.
 *
 * One embedded store, this release's migrations. Each variant keeps a set of the views on search_events (the others
 * are dropped and their tables emptied), then times `--inserts` inserts of `--size` searches of the scale generator
 * (with filters, user tokens, countries and tags; those sent with an id carry it and a retry token, as the intake
 * stores them): the process's CPU time per insert (the engine runs in this process), merges stopped, so the figure
 * is the insert and its views alone. Variants: no view, all views, each view alone; all views also with merges
 * running (the dimension views that issue 46 measured here are gone: migration 0030). The variants take turns in each of `--rounds`
 * rounds (the machine's noise spreads over all of them); the medians go to
 * docs/benchmarks/figures.json (`views`), a view alone as the median of its rounds' differences from the insert
 * without views (a negative one is within the noise).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ClickHouseService, MIGRATIONS, MigratorService } from '@app/clickhouse';
import { loadConfig } from '@app/config';
import { BotDetector, validateSearchEvent, type SearchEventRow } from '@app/contracts';
import { recordFigures, type Figure } from './figures';
import { option } from './intake-service';
import { quantile } from './proc';
import { scaleSearch, searchItem } from './scale-events';

const SIZE = option('size', 170);
const INSERTS = option('inserts', 50);
const ROUNDS = option('rounds', 5);
const DATABASE = 'views_bench';

/**
 * SIZE * (INSERTS + 1) searches of the scale generator from the last hour, as the intake stores them: one per
 * request, so one sent with an id has it (`id_sent`) and its request's retry token (`intake_token`).
 */
function searches(): SearchEventRow[] {
  const end = Date.now();
  const o = { seed: 46, end, customer: 'demo', instance: 'live' };
  const rules = { retentionDays: 400, bots: new BotDetector() };
  return Array.from({ length: SIZE * (INSERTS + 1) }, (_, n) => {
    const s = scaleSearch(n, o);
    const v = validateSearchEvent({ ...searchItem(s), ts: end - 1000 - (n % 3600) * 1000 }, { now: end, source: 'http', ...o }, rules);
    if (!v.ok) {
      throw new Error(`scale search ${n}: ${v.reason}`);
    }
    return s.idSent ? { ...v.row, id_sent: true, intake_token: `request-${n}` } : v.row;
  });
}

class Store {
  /** The views on search_events: name and CREATE statement. */
  views = new Map<string, string>();

  constructor(readonly ch: ClickHouseService) {}

  async load(): Promise<void> {
    const rows = await this.ch.query<{ name: string; sql: string }>(
      `SELECT name, create_table_query AS sql FROM system.tables WHERE database = {db:String} AND engine = 'MaterializedView'
         AND match(create_table_query, {source:String}) ORDER BY name`,
      { db: DATABASE, source: `FROM ${DATABASE}\\.search_events\\b` },
    );
    this.views = new Map(rows.map((r) => [r.name, r.sql]));
  }

  /** Keeps `keep` of the views on search_events, empties every table, stops or starts merges. */
  async prepare(keep: readonly string[], merges: boolean): Promise<void> {
    for (const name of this.views.keys()) {
      await this.ch.command(`DROP VIEW IF EXISTS ${DATABASE}.${name}`);
    }
    const tables = await this.ch.query<{ name: string }>(
      `SELECT name FROM system.tables WHERE database = {db:String} AND engine LIKE '%MergeTree'`,
      { db: DATABASE },
    );
    for (const t of tables) {
      await this.ch.command(`TRUNCATE TABLE ${DATABASE}.${t.name}`);
    }
    for (const name of keep) {
      await this.ch.command(this.views.get(name) as string);
    }
    await this.ch.command(merges ? 'SYSTEM START MERGES' : 'SYSTEM STOP MERGES');
  }

  /** The CPU ms per insert of `rows` in SIZE-row inserts, after one insert to warm up. */
  async cpuPerInsert(rows: readonly SearchEventRow[], round: string): Promise<number> {
    await this.ch.insert('search_events', rows.slice(0, SIZE), `${round}-warm`);
    const before = process.cpuUsage();
    for (let i = 1; i <= INSERTS; i++) {
      await this.ch.insert('search_events', rows.slice(i * SIZE, (i + 1) * SIZE), `${round}-${i}`);
    }
    const used = process.cpuUsage(before);
    return (used.user + used.system) / 1000 / INSERTS;
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-views-'));
  const config = loadConfig({ DATA_DIR: dir, CLICKHOUSE_DATABASE: DATABASE, LOG_LEVEL: 'silent' });
  const ch = new ClickHouseService(config);
  try {
    await new MigratorService(ch, config).migrate(MIGRATIONS);
    const store = new Store(ch);
    await store.load();
    const all = [...store.views.keys()];
    const groups: Array<{ name: string; keep: string[]; merges: boolean }> = [
      { name: 'no view', keep: [], merges: false },
      { name: 'all views', keep: all, merges: false },
      { name: 'all views, merges running', keep: all, merges: true },
    ];
    const variants = [...groups, ...all.map((view) => ({ name: view, keep: [view], merges: false }))];
    const rows = searches();
    const ms = new Map(variants.map((v) => [v.name, [] as number[]]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const v of variants) {
        await store.prepare(v.keep, v.merges);
        ms.get(v.name)?.push(await store.cpuPerInsert(rows, `r${round}-${v.name}`));
      }
    }
    const medianOf = (values: number[]) =>
      quantile(
        [...values].sort((a, b) => a - b),
        0.5,
      );
    const median = (name: string) => medianOf(ms.get(name) ?? []);
    const none = ms.get('no view') ?? [];
    const alone = (view: string) => medianOf((ms.get(view) ?? []).map((x, round) => x - none[round]));
    const figure = (name: string, value: number, unit: string, note: string): Figure => ({
      name,
      value: Math.round(value * 100) / 100,
      unit,
      target: 'reported',
      pass: null,
      note,
    });
    const perInsert = `CPU ms per insert of ${SIZE}`;
    const rounds = (name: string) =>
      `median of ${ROUNDS}: ${ms
        .get(name)
        ?.map((x) => x.toFixed(1))
        .join(', ')}`;
    const figures: Figure[] = [
      ...groups.map((v) => figure(v.name === 'no view' ? 'insert, no view' : v.name, median(v.name), perInsert, rounds(v.name))),
      ...all.map((view) => figure(`view ${view} alone`, alone(view), perInsert, 'above the insert without views, in the same round')),
    ];
    for (const f of figures) {
      console.log(`${f.name.padEnd(64)} ${String(f.value).padStart(7)} ${f.unit} (${f.note})`);
    }
    recordFigures('views', figures);
  } finally {
    await ch.onApplicationShutdown();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
