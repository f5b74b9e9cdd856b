import { loadConfig } from '@app/config';
import { ClickHouseService, MIGRATIONS, MigratorService } from '@app/clickhouse';
import { chDateTime, type SearchEventRow } from '@app/contracts';
import { storedSearch } from './support/stored-search';
import { WORKER_DATA_DIR, uniqueDatabase } from './support/test-app';

const HOUR = 3_600_000;
const ID = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

const event = (n: number, phrase: string, agoHours: number, extra: Partial<SearchEventRow> = {}) =>
  storedSearch(n, agoHours, { phrase, raw_phrase: phrase, ...extra });

/**
 * Migration 0016 on a database that already holds search events: which of them count as searches a click can
 * refer to (`id_sent`), and the copy of each such search id that `search_ids` keeps, before and after it.
 */
describe('migration 0016 (interactions) over stored search events', () => {
  it('marks old rows of requests with ids as sent, backfills search_ids with the smallest copy, and keeps it up to date', async () => {
    const config = loadConfig({ DATA_DIR: WORKER_DATA_DIR, CLICKHOUSE_DATABASE: uniqueDatabase('m16'), LOG_LEVEL: 'silent' });
    const ch = new ClickHouseService(config);
    try {
      const before = MIGRATIONS.filter((m) => m.id < '0016');
      await new MigratorService(ch, config).migrate(before);
      await ch.insert('search_events', [
        event(1, 'shoes', 5, { intake_token: 'http:demo:live:aaa' }),
        event(1, 'boots', 7, { intake_token: 'http:demo:live:bbb' }), // the same id sent again, earlier: the kept copy
        event(2, 'hat', 2), // generated id (no token)
      ]);

      await new MigratorService(ch, config).migrate(MIGRATIONS);
      const sent = await ch.query<{ id: string; phrase: string; id_sent: boolean }>(
        `SELECT toString(event_id) AS id, phrase, id_sent FROM ${ch.table('search_events')} ORDER BY phrase`,
      );
      expect(sent).toEqual([
        { id: ID(1), phrase: 'boots', id_sent: true },
        { id: ID(2), phrase: 'hat', id_sent: false },
        { id: ID(1), phrase: 'shoes', id_sent: true },
      ]);

      // New rows say whether the id was sent; a later copy of id 2 with an id makes it a search clicks can name.
      await ch.insert('search_events', [event(2, 'cap', 1, { id_sent: true }), event(3, 'scarf', 1, { id_sent: false })]);
      const ids = await ch.query<{ id: string; phrase: string }>(
        `SELECT toString(search_id) AS id, min(first).2 AS phrase FROM ${ch.table('search_ids')}
         WHERE customer = 'demo' AND instance = 'live' GROUP BY search_id ORDER BY id`,
      );
      expect(ids).toEqual([
        { id: ID(1), phrase: 'boots' },
        { id: ID(2), phrase: 'cap' },
      ]);
    } finally {
      await ch.onApplicationShutdown();
    }
  });
});

/** Migration 0022 on a database that already holds searches with ids: search_ids gains the hours of all copies. */
describe('migration 0022 (engagement hours) over stored search events', () => {
  const now = Date.now();
  const sent = (n: number, agoHours: number) =>
    event(n, `p${n}`, agoHours, { intake_token: 'http:demo:live:aaa', ts: chDateTime(now - agoHours * HOUR) });
  const hourOf = (agoHours: number) => Math.floor((now - agoHours * HOUR) / HOUR) * 3600;

  it('backfills the hours of every copy of each id, and the view keeps adding them', async () => {
    const config = loadConfig({ DATA_DIR: WORKER_DATA_DIR, CLICKHOUSE_DATABASE: uniqueDatabase('m22'), LOG_LEVEL: 'silent' });
    const ch = new ClickHouseService(config);
    try {
      await new MigratorService(ch, config).migrate(MIGRATIONS.filter((m) => m.id < '0022'));
      // 20 ids, so that the backfill's eighths are not all empty; id 1 twice, 5 hours apart.
      await ch.insert('search_events', [sent(1, 2), sent(1, 7), ...Array.from({ length: 19 }, (_, i) => sent(i + 2, 3))]);
      await new MigratorService(ch, config).migrate(MIGRATIONS);
      await ch.insert('search_events', [sent(2, 30)]);
      const rows = await ch.query<{ id: string; hours: number[] }>(
        `SELECT toString(search_id) AS id, arraySort(groupUniqArrayArray(arrayMap(h -> toUnixTimestamp(h), hours))) AS hours
         FROM ${ch.table('search_ids')} GROUP BY search_id ORDER BY id`,
      );
      expect(rows).toHaveLength(20);
      expect(rows[0]).toEqual({ id: ID(1), hours: [hourOf(7), hourOf(2)] });
      expect(rows[1]).toEqual({ id: ID(2), hours: [hourOf(30), hourOf(3)] });
      expect(rows.slice(2).every((r) => r.hours.length === 1 && r.hours[0] === hourOf(3))).toBe(true);
    } finally {
      await ch.onApplicationShutdown();
    }
  });
});
