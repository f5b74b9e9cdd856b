import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import { exitSignal, freshDir, runScript, startService, type Service } from './support/processes';
import { eventually } from './support/storage';

/**
 * The embedded service killed with SIGKILL in the middle of its background work (test/support/kill-after.js kills
 * it right after a chosen statement): a migration before it is recorded, and an engagement or dimension pass after
 * its rows and before their version. The next start repeats or completes the work, and nothing is counted twice
 * (docs/architecture.md, "A kill at any moment").
 */
const STANDALONE = 'apps/standalone/src/main.js';
const KILL = ['kill-after.js'];
const basic = 'ops:kill-background-password';
const authorization = `Basic ${Buffer.from(basic).toString('base64')}`;

describe('the embedded service killed in the middle of its background work', () => {
  let service: Service | undefined;
  afterEach(async () => {
    await service?.stop();
    service = undefined;
  });

  /**
   * A service on a fresh data set (passes every 500 ms) that is sent `events` and killed right after the statement
   * `statement` matches; answers the environment to start it again with.
   */
  async function killedAfter(name: string, statement: string, events: object[]): Promise<Record<string, string>> {
    const dir = freshDir(name);
    const env = { DATA_DIR: dir, SERVICE_BASIC_AUTH: basic, LOG_LEVEL: 'warn', ENGAGEMENT_REFRESH_MS: '500' };
    service = await startService(STANDALONE, { ...env, KILL_AFTER_SQL: statement, KILL_MARKER: `${dir}/killed` }, 90_000, KILL);
    const res = await fetch(`${service.url}/events`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ events }),
    });
    expect(res.status).toBe(202);
    expect(await exitSignal(service)).toBe('SIGKILL');
    return env;
  }

  it('completes an upgrade killed between migration statements three times, counting the old events once', async () => {
    const dir = freshDir('kill-migration');
    const OLD_EVENTS = 3000;
    const loaded = spawnSync(process.execPath, [path.join(__dirname, 'support', 'old-release-data.js')], {
      env: { PATH: process.env.PATH, DATA_DIR: dir, OLD_EVENTS: String(OLD_EVENTS) },
      encoding: 'utf8',
    });
    expect([loaded.status, loaded.stderr]).toEqual([0, '']);
    const env = { DATA_DIR: dir, SERVICE_BASIC_AUTH: basic, LOG_LEVEL: 'warn' };
    // 0012 changes its first view; 0021 has backfilled the weekly rollup; 0026 has started to build its indexes.
    const kills = ['MODIFY QUERY', 'INSERT INTO \\S*search_phrases_weekly\\W', 'MATERIALIZE INDEX'];
    for (const [n, statement] of kills.entries()) {
      service = await startService(STANDALONE, { ...env, KILL_AFTER_SQL: statement, KILL_MARKER: `${dir}/killed-${n}` }, 90_000, KILL);
      expect(await exitSignal(service)).toBe('SIGKILL');
    }
    service = await startService(STANDALONE, env, 90_000);
    const stats = (await (await fetch(`${service.url}/search-stats?since=7d`, { headers: { authorization } })).json()) as {
      totals: { searches: number };
    };
    await service.stop();
    service = undefined;

    const totals = await runScript('apps/query/src/cli.js', ['totals', 'demo'], env);
    expect(totals.code).toBe(0);
    const stored = JSON.parse(totals.stdout) as { events: number; rollups: Record<string, number> };
    expect({ raw: stored.events, stats: stats.totals.searches }).toEqual({ raw: OLD_EVENTS, stats: OLD_EVENTS });
    expect(Object.entries(stored.rollups).filter(([, n]) => n !== OLD_EVENTS)).toEqual([]);
  }, 300_000);

  it('counts every click once after an engagement pass killed between its rows and their version', async () => {
    const searches = Array.from({ length: 30 }, (_, i) => ({
      id: randomUUID(),
      phrase: `term ${i % 3}`,
      language: 'de',
      hits: 4,
      ts: Date.now() - 3_600_000 + i,
    }));
    const clicks = searches.slice(0, 12).map((s, i) => ({ type: 'click', searchId: s.id, objectId: `p-${i}`, position: 1 + (i % 4) }));
    const env = await killedAfter('kill-pass', 'INSERT INTO \\S*engagement_hourly\\W', [...searches, ...clicks]);

    service = await startService(STANDALONE, env, 90_000);
    const url = service.url;
    const totals = await eventually(
      async () => {
        const answer = await fetch(`${url}/search-stats?since=1d&engagement=true`, { headers: { authorization } });
        return ((await answer.json()) as { totals: { tracked_searches: number; clicks: number; clicked_searches: number } }).totals;
      },
      (t) => t.clicks === clicks.length,
      30_000,
    );
    expect(totals).toMatchObject({ tracked_searches: searches.length, clicked_searches: clicks.length, clicks: clicks.length });
  }, 300_000);

  it("orders every term exactly by its figures after a pass killed between a span's rows and its record", async () => {
    // 30 hours back: settled hours, which a span holds.
    const searches = Array.from({ length: 30 }, (_, i) => ({
      id: randomUUID(),
      phrase: `term ${i % 3}`,
      language: 'de',
      hits: 4,
      ts: Date.now() - 30 * 3_600_000 + i,
    }));
    // term 0: 10 tracked, 10 clicked; term 1: 10 and 5; term 2: 10 and 0.
    const clicks = searches
      .filter((_, i) => i % 3 === 0 || (i % 3 === 1 && i < 15))
      .map((s, i) => ({ type: 'click', searchId: s.id, objectId: `p-${i}`, position: 1 + (i % 4) }));
    const env = await killedAfter('kill-span', 'INSERT INTO \\S*engagement_phrase_spans\\W', [...searches, ...clicks]);

    service = await startService(STANDALONE, env, 90_000);
    const url = service.url;
    // Once a pass after the restart has built the span: the killed pass's rows, never recorded, are not read.
    await eventually(
      async () => (await fetch(`${url}/metrics`)).text(),
      (metrics) => /^engagement_refresh_spans_total [1-9]/m.test(metrics),
      30_000,
    );
    const todo = (await (await fetch(`${url}/search-terms?since=30d&sort=no_clicks`, { headers: { authorization } })).json()) as Array<{
      search_phrase: string;
      tracked_searches: number;
      clicked_searches: number;
    }>;
    expect(todo.map((e) => [e.search_phrase, e.tracked_searches, e.clicked_searches])).toEqual([
      ['term 2', 10, 0],
      ['term 1', 10, 5],
      ['term 0', 10, 10],
    ]);
  }, 300_000);

  it('counts every search once in the breakdowns and users after a dimension pass killed between its rows and their version', async () => {
    // Two hours back: a complete hour, which the pass computes (the current one is read raw).
    const searches = Array.from({ length: 30 }, (_, i) => ({
      phrase: `term ${i % 3}`,
      language: 'de',
      hits: i % 2,
      ts: Date.now() - 2 * 3_600_000 + i,
      userToken: `user-${i % 7}`,
      country: 'DE',
      filters: [`brand:b${i % 2}`],
    }));
    const env = await killedAfter('kill-dimensions', 'INSERT INTO \\S*search_phrase_dimensions_hourly\\W', searches);

    service = await startService(STANDALONE, env, 90_000);
    const url = service.url;
    const get = async <T>(path: string) => (await (await fetch(`${url}${path}`, { headers: { authorization } })).json()) as T;
    // Once a pass after the restart has computed the hour again: the killed pass's rows, never recorded, are not read.
    await eventually(
      async () => (await fetch(`${url}/metrics`)).text(),
      (metrics) => /^dimension_refresh_hours_total [1-9]/m.test(metrics),
      30_000,
    );
    expect(await get('/search-breakdown?since=1d&by=country')).toEqual([
      expect.objectContaining({ country: 'DE', searches: 30, users: 7 }),
    ]);
    expect(await get('/search-breakdown?since=1d&by=filter_value&attribute=brand')).toEqual([
      expect.objectContaining({ value: 'b0', searches: 15, users: 7 }),
      expect.objectContaining({ value: 'b1', searches: 15, users: 7 }),
    ]);
    const stats = await get<{ totals: { searches: number; users: number } }>('/search-stats?since=1d');
    expect(stats.totals).toMatchObject({ searches: searches.length, users: 7 });
  }, 300_000);
});
