import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { loadConfig } from '@app/config';
import { ClickHouseService, MIGRATIONS, MigratorService } from '@app/clickhouse';
import { chDateTime, type SearchEventRow } from '@app/contracts';
import { WORKER_DATA_DIR, uniqueDatabase } from './support/test-app';

/**
 * Two ingest apps and the query app starting together on a fresh server: their migration runs overlap while
 * events already arrive. Here two MigratorService runs share one engine (as the processes share a server) and a
 * loop keeps inserting events through ClickHouseService.insert, as the ingest apps do.
 */
describe('migrations started by several processes at once, with events arriving', () => {
  const PHRASES = ['shoes', 'red dress', 'hat'];
  const DAY = 24 * 60 * 60 * 1000;

  function events(n: number, seq: number): SearchEventRow[] {
    const now = Date.now();
    return Array.from({ length: n }, (_, i) => ({
      event_id: randomUUID(),
      customer: 'demo',
      instance: 'live',
      // Spread over four days and several hours, so days and hours both matter.
      ts: chDateTime(now - ((seq + i) % 4) * DAY - ((seq * 7 + i) % 5) * 3_600_000),
      phrase: PHRASES[(seq + i) % PHRASES.length],
      raw_phrase: PHRASES[(seq + i) % PHRASES.length],
      language: 'de',
      hits: (seq + i) % 3,
      bot: false,
      session_hash: '',
      source: 'http',
      topic: '',
      partition: 0,
      offset: 0,
      received_at: chDateTime(now),
    }));
  }

  // Two migration runs racing on a fresh engine beside a writer: 12 s on an idle 2-core machine, over 30 s in CI
  // beside the other suites. Not a timed test: the limit only ends a hung run.
  it('backfills each rollup once and counts every event exactly once', async () => {
    const config = loadConfig({ DATA_DIR: WORKER_DATA_DIR, CLICKHOUSE_DATABASE: uniqueDatabase('mig'), LOG_LEVEL: 'silent' });
    const ch = new ClickHouseService(config);
    let stop = false;
    let stored = 0;
    let seq = 0;
    // The ingest side: inserts fail until search_events exists, then land before, during and after the backfill.
    const ingest = (async () => {
      while (!stop) {
        try {
          await ch.insert('search_events', events(3, seq++));
          stored += 3;
        } catch {
          await new Promise((r) => setTimeout(r, 2));
        }
      }
    })();
    try {
      const runs = await Promise.all([
        new MigratorService(ch, config).migrate(MIGRATIONS),
        new MigratorService(ch, config).migrate(MIGRATIONS),
      ]);
      const storedWhenMigrated = stored;
      while (stored < storedWhenMigrated + 30) {
        await new Promise((r) => setTimeout(r, 5));
      }
      stop = true;
      await ingest;

      expect(storedWhenMigrated).toBeGreaterThan(0); // events arrived while the migrations ran

      // Events per day and phrase: raw, and as each rollup counts them.
      const perDayAndPhrase = (table: string, day: string, count: string) =>
        ch.query<{ day: string; phrase: string; c: string }>(
          `SELECT toString(${day}) AS day, phrase, toString(${count}) AS c FROM ${ch.table(table)}
           GROUP BY day, phrase ORDER BY day, phrase`,
        );
      const raw = await perDayAndPhrase('search_events', 'toDate(ts)', 'count()');
      const daily = await perDayAndPhrase('search_terms_daily', 'day', 'sum(searches)');
      const hourly = await perDayAndPhrase('search_terms_hourly', 'toDate(hour)', 'sum(searches)');
      const spellings = await perDayAndPhrase('search_term_spellings_hourly', 'toDate(hour)', 'sum(searches)');
      // The rollups without the language (0011).
      const phrasesDaily = await perDayAndPhrase('search_phrases_daily', 'day', 'sum(searches)');
      const phrasesHourly = await perDayAndPhrase('search_phrases_hourly', 'toDate(hour)', 'sum(searches)');
      // The weekly one (0021), per week.
      const phrasesWeekly = await perDayAndPhrase('search_phrases_weekly', 'week', 'sum(searches)');
      const rawWeekly = await perDayAndPhrase('search_events', 'toMonday(ts)', 'count()');
      const totals = await ch.query<{ day: string; c: string }>(
        `SELECT toString(toDate(hour)) AS day, toString(sum(searches)) AS c FROM ${ch.table('search_totals_hourly')}
         GROUP BY day ORDER BY day`,
      );
      const rawTotals = await ch.query<{ day: string; c: string }>(
        `SELECT toString(toDate(ts)) AS day, toString(count()) AS c FROM ${ch.table('search_events')} GROUP BY day ORDER BY day`,
      );
      expect(raw.reduce((sum, r) => sum + Number(r.c), 0)).toBe(stored);
      expect(daily).toEqual(raw);
      expect(hourly).toEqual(raw);
      expect(spellings).toEqual(raw);
      expect(phrasesDaily).toEqual(raw);
      expect(phrasesHourly).toEqual(raw);
      expect(phrasesWeekly).toEqual(rawWeekly);
      expect(totals).toEqual(rawTotals);
      // Every migration ran in exactly one of the two processes; the other waited and found it recorded.
      expect(runs.flat().sort()).toEqual(MIGRATIONS.map((m) => m.id).sort());
    } finally {
      stop = true;
      await ingest;
      await ch.onApplicationShutdown();
    }
  }, 120_000);
});

describe('the migration lock', () => {
  const LOCK = 'schema_migrations_lock';

  async function fresh() {
    const config = loadConfig({ DATA_DIR: WORKER_DATA_DIR, CLICKHOUSE_DATABASE: uniqueDatabase('lock'), LOG_LEVEL: 'silent' });
    const ch = new ClickHouseService(config);
    await ch.command(`CREATE DATABASE IF NOT EXISTS \`${ch.database}\``);
    return { config, ch };
  }

  /** What a process holding the lock leaves in storage: the table named after it, and its heartbeats. */
  async function holdLock(ch: ClickHouseService, holder: string, lastBeatAgoMs: number) {
    await ch.command(
      `CREATE TABLE ${ch.table(LOCK)} (holder String, at DateTime64(3, 'UTC')) ENGINE = MergeTree ORDER BY tuple() COMMENT '${holder}'`,
    );
    await ch.command(
      `INSERT INTO ${ch.table(LOCK)} SELECT {holder:String}, now64(3) - toIntervalMillisecond({ago:UInt32})
       SETTINGS insert_deduplication_token = '${randomUUID()}'`,
      { holder, ago: lastBeatAgoMs },
    );
  }

  it('is taken over from a holder that stopped beating (crashed) after the lease', async () => {
    const { config, ch } = await fresh();
    try {
      const dead = randomUUID();
      await holdLock(ch, dead, 10 * 60_000);
      expect(await new MigratorService(ch, config).migrate(MIGRATIONS)).toEqual(MIGRATIONS.map((m) => m.id));
      const tables = await ch.query<{ name: string }>(
        `SELECT name FROM system.tables WHERE database = {db:String} AND name LIKE 'schema_migrations_lock%'`,
        { db: ch.database },
      );
      expect(tables.map((t) => t.name)).toEqual([`${LOCK}_stale_${dead.replace(/-/g, '')}`]); // released, the dead holder's kept aside
    } finally {
      await ch.onApplicationShutdown();
    }
  });

  it('is taken over at once on the embedded engine when it was taken before this process started (a killed holder)', async () => {
    const { config, ch } = await fresh();
    const warn = jest.spyOn(Logger.prototype, 'warn');
    try {
      const dead = randomUUID();
      // Its last heartbeat a second before this process started: within the lease when the process is young.
      await holdLock(ch, dead, Math.ceil(process.uptime() * 1000) + 1000);
      expect(await new MigratorService(ch, config).migrate(MIGRATIONS)).toEqual(MIGRATIONS.map((m) => m.id));
      expect(warn.mock.calls.map(([message]) => String(message))).toContain(
        `migration lock of ${dead} left by a process that ended: taking it over`,
      );
    } finally {
      warn.mockRestore();
      await ch.onApplicationShutdown();
    }
  });

  it('makes a process wait while a live holder migrates, then finds the work done', async () => {
    const { config, ch } = await fresh();
    try {
      await holdLock(ch, randomUUID(), 0);
      let finished = false;
      const waiting = new MigratorService(ch, config).migrate(MIGRATIONS).then((ids) => {
        finished = true;
        return ids;
      });
      await new Promise((r) => setTimeout(r, 700));
      expect(finished).toBe(false);
      // The holder applies everything and releases.
      const holder = new MigratorService(ch, config);
      await ch.command(`DROP TABLE ${ch.table(LOCK)} SYNC`);
      const appliedByHolder = await holder.migrate(MIGRATIONS);
      const appliedByWaiter = await waiting;
      expect([...appliedByHolder, ...appliedByWaiter].sort()).toEqual(MIGRATIONS.map((m) => m.id).sort());
    } finally {
      await ch.onApplicationShutdown();
    }
  });
});
