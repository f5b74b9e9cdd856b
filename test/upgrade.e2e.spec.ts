import { randomUUID } from 'node:crypto';
import { loadConfig } from '@app/config';
import { ClickHouseService, MIGRATIONS, MigratorService } from '@app/clickhouse';
import { EngagementRefresh } from '../apps/query/src/analytics/engagement-refresh';
import { basicHeader, http, startApp, uniqueDatabase, WORKER_DATA_DIR, type TestApp } from './support/test-app';
import { dumpSchema, loadRelease0011, readFixture, writeFixture } from './support/release-0011';

/**
 * An upgrade from a release before retry tokens (migrations 0001-0011, frozen in test/fixtures/release-0011.sql):
 * what that release stored is counted once after the upgrade, and its searches with ids can still be clicked
 * (docs/upgrading.md).
 */
describe('an upgrade from the release of migrations 0001-0011', () => {
  it('has the fixture of that schema as migrations 0001-0011 create it (UPDATE_FIXTURES=1 writes it)', async () => {
    const config = loadConfig({ DATA_DIR: WORKER_DATA_DIR, CLICKHOUSE_DATABASE: uniqueDatabase('r11'), LOG_LEVEL: 'silent' });
    const ch = new ClickHouseService(config);
    try {
      await new MigratorService(ch, config).migrate(MIGRATIONS.filter((m) => m.id < '0012'));
      const dumped = await dumpSchema(ch);
      if (process.env.UPDATE_FIXTURES) {
        writeFixture(dumped);
      }
      expect(dumped).toEqual(readFixture());
    } finally {
      await ch.onApplicationShutdown();
    }
  });

  describe('with rows that release stored', () => {
    const database = uniqueDatabase('upgrade');
    const ids = Array.from({ length: 20 }, () => randomUUID());
    const events = ids.map((id, i) => ({ id, phrase: 'wool hat', language: 'de', hits: 3, ts: Date.now() - 2 * 3_600_000 + i }));
    let t: TestApp;

    beforeAll(async () => {
      const config = loadConfig({ DATA_DIR: WORKER_DATA_DIR, CLICKHOUSE_DATABASE: database, LOG_LEVEL: 'silent' });
      const ch = new ClickHouseService(config);
      try {
        await loadRelease0011(ch);
        // As that release stored a POST /events request with ids: one insert, deduplicated by its token in the
        // engine's block log, without a token in the rows.
        const oldRows = (token: string, customer: string, phrase: string, rowIds: readonly string[]) =>
          ch.command(
            `INSERT INTO ${ch.table('search_events')} (event_id, customer, instance, ts, phrase, raw_phrase, language, hits, bot,
               session_hash, source, topic, partition, offset, received_at)
             SETTINGS insert_deduplication_token = '${token}'
             SELECT toUUID(id), {customer:String}, 'live', now64(3) - INTERVAL 2 HOUR, {phrase:String}, {phrase:String}, 'de', 3,
               false, '', 'http', '', 0, 0, now64(3) - INTERVAL 1 HOUR
             FROM (SELECT arrayJoin({ids:Array(String)}) AS id)`,
            { customer, phrase, ids: rowIds },
          );
        await oldRows('old-request', 'demo', 'wool hat', ids);
        // The block log holds the last `window` inserts' tokens (10,000 in production, where 10,000 inserts through
        // this schema's seven views take minutes): after `window` later inserts it has forgotten the request.
        await ch.command(`ALTER TABLE ${ch.table('search_events')} MODIFY SETTING non_replicated_deduplication_window = 10`);
        for (let n = 0; n <= 10; n++) {
          await oldRows(`later-${n}`, 'other', 'later', [randomUUID()]);
        }
      } finally {
        await ch.onApplicationShutdown();
      }
      t = await startApp({ CLICKHOUSE_DATABASE: database });
    });
    afterAll(async () => {
      await t?.close();
    });

    const count = async (term: string) => {
      const res = await http<Array<{ search_phrase: string; count: number; tracked_searches: number; clicks: number }>>(
        `${t.url}/search-terms?since=1d&hits=true&engagement=true`,
        { headers: basicHeader() },
      );
      expect(res.status).toBe(200);
      return res.body.find((r) => r.search_phrase === term);
    };

    it('counts a request stored before the upgrade and retried after it once', async () => {
      const retried = await http(`${t.url}/events`, {
        method: 'POST',
        headers: { ...basicHeader(), 'content-type': 'application/json' },
        body: JSON.stringify({ events }),
      });
      expect(retried.status).toBe(202);
      expect(retried.body).toEqual({ accepted: 20, rejected: [] });
      expect(await count('wool hat')).toMatchObject({ count: 20 });

      // The same ids in another request (one more id) are a new request: stored.
      const other = [...events.slice(0, 19), { ...events[19], id: randomUUID() }];
      const stored = await http(`${t.url}/events`, {
        method: 'POST',
        headers: { ...basicHeader(), 'content-type': 'application/json' },
        body: JSON.stringify({ events: other }),
      });
      expect(stored.body).toEqual({ accepted: 20, rejected: [] });
      expect(await count('wool hat')).toMatchObject({ count: 40 });
    });

    it('makes an old search tracked once a click names it, and counts the click for its term', async () => {
      // Tracked: the 20 ids sent after the upgrade (19 of them old ids sent again), not ids[19].
      expect(await count('wool hat')).toMatchObject({ count: 40, tracked_searches: 20, clicks: 0 });

      const click = await http(`${t.url}/events`, {
        method: 'POST',
        headers: { ...basicHeader(), 'content-type': 'application/json' },
        body: JSON.stringify({ events: [{ type: 'click', searchId: ids[19], objectId: 'hat-1', position: 1 }] }),
      });
      expect(click.body).toEqual({ accepted: 1, rejected: [] });
      await t.app.get(EngagementRefresh).refresh();
      await t.app.get(EngagementRefresh).refresh();
      // The clicked old search is tracked now, and its click counts for its term.
      expect(await count('wool hat')).toMatchObject({ count: 40, tracked_searches: 21, clicks: 1 });
    });
  });
});
