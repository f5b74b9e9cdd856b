import { randomUUID } from 'node:crypto';
import { ClickHouseService, SEARCH_ROLLUPS } from '@app/clickhouse';
import { StorageCheck } from '../libs/intake/src/storage-check.service';
import { basicHeader, http, startApp, type TestApp } from './support/test-app';

/**
 * What a process killed in the middle of an insert leaves (docs/architecture.md, "A kill at any moment"), planted by
 * hand, then found and made exact by the storage check: raw rows whose views were not all written, rollup rows
 * without their raw rows, and a request's rows stored twice under its retry token. Afterwards every rollup agrees
 * with the raw rows and every answer counts each acknowledged event once.
 */
const HOUR = 3_600_000;

describe('the storage check', () => {
  let t: TestApp;
  let ch: ClickHouseService;
  const sent = new Map<string, number>(); // phrase -> events acknowledged
  const headers = { ...basicHeader(), 'content-type': 'application/json' };

  /**
   * Sends `n` events of `phrase` with ids (so the request has a retry token) and answers the body sent. Each has two
   * filters, a country and a tag: 8 rows in each dimension rollup (search, 2 attributes, 2 values, the set, country,
   * tag), and the user token `user`.
   */
  const send = async (phrase: string, n: number, user: string, ts = Date.now() - HOUR) => {
    const body = JSON.stringify({
      events: Array.from({ length: n }, (_, i) => ({
        id: randomUUID(),
        phrase,
        language: 'de',
        hits: i % 2,
        ts: ts + i,
        filters: ['brand:Acme', `size<=${i}`],
        country: 'de',
        tags: ['mobile'],
        userToken: user,
      })),
    });
    const res = await http<{ accepted: number }>(`${t.url}/events`, { method: 'POST', headers, body });
    expect([res.status, res.body.accepted]).toEqual([202, n]);
    sent.set(phrase, (sent.get(phrase) ?? 0) + n);
    return body;
  };
  const raw = async () => Number((await ch.query<{ n: string }>(`SELECT toString(sum(sign)) AS n FROM ${ch.table('search_events')}`))[0].n);
  const rolled = async (table: string) =>
    Number((await ch.query<{ n: string }>(`SELECT toString(sum(searches)) AS n FROM ${ch.table(table)}`))[0].n);
  const repairs = async () => {
    const metrics = (await http<string>(`${t.url}/metrics`)).body;
    return [...metrics.matchAll(/^storage_repairs_total\{table="([a-z_]+)"\} (\d+)$/gm)].map((m): [string, number] => [m[1], Number(m[2])]);
  };

  beforeAll(async () => {
    t = await startApp();
    ch = t.app.get(ClickHouseService);
  });
  afterAll(() => t.close());

  it('makes every rollup agree with the raw rows again, and counts each acknowledged event once', async () => {
    await send('wool hat', 6, 'user-1');
    // A request whose insert was cut between the table and two of its views: its raw rows and the other views' rows
    // are stored, those four views' are not (the views are taken away for the insert, as a kill would).
    const missed = ['search_terms_hourly_mv', 'search_phrases_weekly_mv', 'search_ids_mv', 'engagement_changes_searches_mv'];
    for (const view of missed) {
      await ch.command(`DETACH TABLE ${ch.table(view)}`);
    }
    await send('rain boots', 4, 'user-2');
    for (const view of missed) {
      await ch.command(`ATTACH TABLE ${ch.table(view)}`);
    }
    // A retry stored again after such a kill: the same rows, under the same retry token and event ids, received later.
    const [first] = await ch.query<{ intake_token: string }>(
      `SELECT intake_token FROM ${ch.table('search_events')} WHERE phrase = 'wool hat' LIMIT 1`,
    );
    await ch.command(
      `INSERT INTO ${ch.table('search_events')} SELECT * REPLACE (now64(3, 'UTC') AS received_at) FROM ${ch.table('search_events')}
       WHERE intake_token = {token:String} SETTINGS insert_deduplication_token = '${randomUUID()}'`,
      { token: first.intake_token },
    );
    // Rollup rows without raw rows (a view's part of an insert whose raw part is gone): 5 searches of a phrase never sent.
    await ch.insert('search_phrases_daily', [
      {
        customer: 'demo',
        instance: 'live',
        zero_hits: false,
        bot: false,
        day: new Date(Date.now() - HOUR).toISOString().slice(0, 10),
        phrase: 'ghost',
        searches: 5,
      },
    ]);
    // A click whose insert was cut before its view recorded the change (the engagement pass would not compute its
    // search's hour again).
    const [clicked] = await ch.query<{ id: string }>(
      `SELECT toString(event_id) AS id FROM ${ch.table('search_events')} WHERE phrase = 'wool hat' AND hits > 0 LIMIT 1`,
    );
    await ch.command(`DETACH TABLE ${ch.table('engagement_changes_interactions_mv')}`);
    const click = await http(`${t.url}/events`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ events: [{ type: 'click', searchId: clicked.id, objectId: 'hat-1', position: 1 }] }),
    });
    expect(click.body).toEqual({ accepted: 1, rejected: [] });
    await ch.command(`ATTACH TABLE ${ch.table('engagement_changes_interactions_mv')}`);
    const changedSinceClick = async () =>
      Number(
        (
          await ch.query<{ n: string }>(
            `SELECT toString(count()) AS n FROM ${ch.table('engagement_changes')} WHERE search_id = toUUID({id:String})
             AND inserted_at >= (SELECT max(received_at) FROM ${ch.table('interactions')})`,
            { id: clicked.id },
          )
        )[0].n,
      );
    expect(await changedSinceClick()).toBe(0);
    const acknowledged = [...sent.values()].reduce((a, b) => a + b, 0);
    expect(await raw()).toBe(acknowledged + 6);
    expect(await rolled('search_terms_hourly')).toBe(acknowledged + 6 - 4);

    await t.app.get(StorageCheck).run();

    expect(await raw()).toBe(acknowledged);
    for (const rollup of SEARCH_ROLLUPS) {
      expect([rollup.table, await rolled(rollup.table)]).toEqual([rollup.table, acknowledged]);
    }
    // Who searched: the retry's copies are no third shopper.
    const stats = await http<{ totals: { searches: number; users: number } }>(`${t.url}/search-stats?since=1d`, { headers: basicHeader() });
    expect(stats.body.totals).toMatchObject({ searches: acknowledged, users: 2 });
    for (const hits of ['true', 'false']) {
      const terms = await http<Array<{ search_phrase: string; count: number }>>(`${t.url}/search-terms?since=1d&hits=${hits}`, {
        headers: basicHeader(),
      });
      expect(terms.body.map((term) => [term.search_phrase, term.count])).toEqual(
        [...sent]
          .map(([phrase, n]) => [phrase, n / 2])
          .sort((a, b) => Number(b[1]) - Number(a[1]) || String(a[0]).localeCompare(String(b[0]))),
      );
    }
    // Every search id sent is known again (its clicks count for its term), and the engagement pass will compute its hour.
    const known = async (table: string, column: string) =>
      Number((await ch.query<{ n: string }>(`SELECT toString(uniqExact(${column})) AS n FROM ${ch.table(table)}`))[0].n);
    expect([await known('search_ids', 'search_id'), await known('engagement_changes', 'search_id')]).toEqual([acknowledged, acknowledged]);
    expect(await changedSinceClick()).toBe(1);
    const counted = new Map(await repairs());
    expect(counted.get('search_ids')).toBe(1);
    expect(counted.get('engagement_changes')).toBe(1);
    expect(counted.get('search_events')).toBe(6);
    expect(counted.get('search_terms_hourly')).toBeGreaterThan(0);
    expect(counted.get('search_phrases_weekly')).toBeGreaterThan(0);
    expect(counted.get('search_phrases_daily')).toBeGreaterThan(0);

    // Exact now: another run repairs nothing.
    await t.app.get(StorageCheck).run();
    expect(await repairs()).toEqual([...counted]);
  });

  it("leaves alone an id a request repeated: those copies are the client's own, not a retry", async () => {
    const id = randomUUID();
    const body = JSON.stringify({
      events: [0, 1].map((i) => ({ id, phrase: 'twin', language: 'de', hits: 1, ts: Date.now() - HOUR + i })),
    });
    const res = await http<{ accepted: number }>(`${t.url}/events`, { method: 'POST', headers, body });
    expect([res.status, res.body.accepted]).toEqual([202, 2]);
    const before = new Map(await repairs()).get('search_events');
    await t.app.get(StorageCheck).run();
    const [{ n }] = await ch.query<{ n: string }>(
      `SELECT toString(sum(sign)) AS n FROM ${ch.table('search_events')} WHERE phrase = 'twin'`,
    );
    expect(Number(n)).toBe(2);
    expect(new Map(await repairs()).get('search_events')).toBe(before);
  });
});
