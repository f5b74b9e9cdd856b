import { ClickHouseService } from '@app/clickhouse';
import { AlertClock } from '../apps/query/src/alerts/alert-clock';
import { AlertsRepository } from '../apps/query/src/alerts/alerts.repository';
import { AlertsService, MAX_TERM_ALERTS } from '../apps/query/src/alerts/alerts.service';
import { searchRow, type Search } from './support/engagement';
import { Receiver } from './support/receiver';
import { basicHeader, http, startApp, uniqueDatabase, type TestApp } from './support/test-app';

/**
 * Alerts (docs/alerts.md) with a clock the test sets: two query processes on one store evaluate each complete hour,
 * and every alert is raised once, as a notification and one POST to the alert URL.
 */
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** The start of an hour three days ago: every seeded search is inside the retention. */
const B = Math.floor(Date.now() / HOUR) * HOUR - 3 * DAY;

interface AlertNotification {
  kind: string;
  type: string;
  alert: string;
  message: string;
  [figure: string]: unknown;
}

describe('alerts across two query processes, with a clock the test controls', () => {
  const database = uniqueDatabase();
  const env = { CLICKHOUSE_DATABASE: database, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_TIMEOUT_MS: '1000' };
  let a: TestApp;
  let b: TestApp;
  let receiver: Receiver;
  let failing: Receiver;
  let now = B;

  const headers = (instance: string) => ({ ...basicHeader(), 'content-type': 'application/json', 'x-service-instance': instance });
  const configure = (instance: string, body: unknown) =>
    http(`${a.url}/configuration`, { method: 'PUT', headers: headers(instance), body: JSON.stringify(body) });
  const notifications = async (instance: string) =>
    (await http<AlertNotification[]>(`${a.url}/notifications?_end=100`, { headers: headers(instance) })).body;
  const alertsOf = async (instance: string) => (await notifications(instance)).filter((n) => n.kind === 'alert');
  /** Both processes evaluate at the same time, at `at`. */
  const tick = async (at: number, apps = [a, b]) => {
    now = at;
    await Promise.all(apps.map((app) => app.app.get(AlertsService).tick()));
  };
  const followClock = (app: TestApp) => jest.spyOn(app.app.get(AlertClock), 'now').mockImplementation(() => now);
  const seed = (instance: string, searches: Search[]) =>
    a.app.get(ClickHouseService).insert(
      'search_events',
      searches.map((s) => ({ ...searchRow(s), instance })),
    );
  const searches = (n: number, s: Omit<Search, 'bot'> & { bot?: boolean }): Search[] =>
    Array.from({ length: n }, (_, i) => ({ bot: false, ...s, ts: s.ts + i * 1000 }));
  const entity = (id: string, body: unknown, method = 'PUT') =>
    http(`${a.url}/entities/landingpage/${id}`, {
      method,
      headers: headers('live'),
      body: method === 'PUT' ? JSON.stringify(body) : undefined,
    });

  beforeAll(async () => {
    receiver = await new Receiver().start();
    failing = await new Receiver().start();
    failing.reset({ status: 500 });
    a = await startApp(env);
    b = await startApp(env);
    followClock(a);
    followClock(b);
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    await receiver.stop();
    await failing.stop();
  });

  it('raises an unhandled zero-result term once, with its unhandled languages, as a notification and one POST', async () => {
    expect(
      (await configure('live', { webhookConfig: { url: '' }, alertConfig: { url: `${receiver.url}/alerts?token=s3cret`, minSearches: 3 } }))
        .body,
    ).toEqual({
      webhookConfig: { url: '' },
      algoliaIndexes: {},
      alertConfig: { url: `${receiver.url}/alerts?token=s3cret`, minSearches: 3, zeroHitRateJump: 0.1 },
    });
    await seed('live', [
      ...searches(2, { ts: B - 20 * HOUR, phrase: 'sneker', language: 'de', hits: 0 }),
      ...searches(1, { ts: B - 2 * HOUR, phrase: 'sneker', language: 'de-ch', hits: 0 }),
      ...searches(1, { ts: B - 30 * HOUR, phrase: 'sneker', language: 'de', hits: 0 }), // before the 24 hours
      ...searches(5, { ts: B - 3 * HOUR, phrase: 'sneker', language: 'de', hits: 0, bot: true }), // bots never count
      ...searches(4, { ts: B - 3 * HOUR, phrase: 'rain jacket', language: 'de-ch', hits: 0 }), // handled in de-ch
      ...searches(3, { ts: B - 3 * HOUR, phrase: 'wool cap', language: 'fr', hits: 0 }), // handled in every language
      ...searches(2, { ts: B - 3 * HOUR, phrase: 'socks', language: 'de', hits: 0 }), // too few
      ...searches(9, { ts: B - 3 * HOUR, phrase: 'sneaker', language: 'de', hits: 12 }), // found results
    ]);
    expect((await entity('lp-rain', { searchPhrases: ['Rain Jacket'], language: 'de-CH' })).status).toBe(201);
    expect((await entity('lp-caps', { searchPhrases: ['wool cap'] })).status).toBe(201);

    await tick(B + 3 * 60_000); // the hour [B-1h, B) is complete
    const alerts = await alertsOf('live');
    expect(alerts).toEqual([
      expect.objectContaining({
        kind: 'alert',
        type: 'alert',
        alert: 'unhandled-zero-result-term',
        search_phrase: 'sneker',
        languages: ['de', 'de-ch'],
        zero_result_searches: 3,
        message: '"sneker" found nothing 3 times in the last 24 h and is not handled in de, de-ch',
      }),
    ]);
    expect(receiver.calls.map((c) => [c.path, c.body])).toEqual([
      [
        '/alerts?token=s3cret',
        {
          customer: 'demo',
          instance: 'live',
          type: 'alert',
          alert: 'unhandled-zero-result-term',
          search_phrase: 'sneker',
          languages: ['de', 'de-ch'],
          zero_result_searches: 3,
        },
      ],
    ]);

    // The next hour: still unhandled, not raised again; and no process evaluates an hour twice.
    await tick(B + HOUR + 3 * 60_000);
    await tick(B + HOUR + 30 * 60_000);
    expect(await alertsOf('live')).toHaveLength(1);
    expect(receiver.calls).toHaveLength(1);
  });

  it('lets exactly one of two processes claim an hour, however their claims interleave', async () => {
    const repositories = [a, b, a, b].map((app) => app.app.get(AlertsRepository));
    const keys = Array.from({ length: 30 }, (_, i) => `hour:race-${i}`);
    const winners = await Promise.all(
      keys.map(async (key) => (await Promise.all(repositories.map((r) => r.claim('demo', 'race', key)))).filter(Boolean).length),
    );
    expect(winners).toEqual(keys.map(() => 1));
    // A claim after the race (a restart) loses too; a released claim lets the next one win, once.
    expect(await repositories[0].claim('demo', 'race', keys[0])).toBeUndefined();
  });

  it('does not let a claim stamped before the winner but stored after its check win too', async () => {
    // The store stamps a claim when its insert begins and shows it when the insert ends: on a busy machine a claim
    // begun first can become visible after another process already saw itself first (it happened in CI: an alert
    // raised twice). Here b's claim is stamped a second before a's and stored after a won.
    const store = b.app.get(ClickHouseService);
    const insert = store.insert.bind(store);
    const earlier = new Date(Date.now() - 1000).toISOString().replace('T', ' ').replace('Z', '');
    const stamped = (table: string, rows: readonly object[]) => (table === 'alert_log' ? rows.map((r) => ({ ...r, at: earlier })) : rows);
    const backdated = jest.spyOn(store, 'insert').mockImplementation((table, rows, token) => insert(table, stamped(table, rows), token));
    try {
      const first = await a.app.get(AlertsRepository).claim('demo', 'race', 'hour:stamped');
      const second = await b.app.get(AlertsRepository).claim('demo', 'race', 'hour:stamped');
      expect([first === undefined, second === undefined]).toEqual([false, true]);
    } finally {
      backdated.mockRestore();
    }
    // Once the winner releases its claim (its evaluation failed), exactly one next claim wins.
    const repositories = [a, b].map((app) => app.app.get(AlertsRepository));
    const claimAll = async () => (await Promise.all(repositories.map((r) => r.claim('demo', 'race', 'hour:released')))).filter(Boolean);
    const [held] = await claimAll();
    expect(held).toBeDefined();
    await repositories[0].release('demo', 'race', 'hour:released', held!);
    expect(await claimAll()).toHaveLength(1);
    expect(await claimAll()).toHaveLength(0);
  });

  it('does not raise a term again until it was handled in every language and became unhandled again', async () => {
    receiver.reset();
    expect((await entity('lp-sneaker', { searchPhrases: ['sneker'], language: 'de' })).status).toBe(201);
    await tick(B + 2 * HOUR + 3 * 60_000); // handled in de only: the alert stays open, nothing new
    expect(await alertsOf('live')).toHaveLength(1);
    expect((await entity('lp-sneaker', { searchPhrases: ['sneker'] })).status).toBe(200); // every language
    await tick(B + 3 * HOUR + 3 * 60_000);
    expect(await alertsOf('live')).toHaveLength(1);
    expect((await entity('lp-sneaker', undefined, 'DELETE')).status).toBe(200);
    await tick(B + 4 * HOUR + 3 * 60_000); // unhandled again, still searched in the last 24 h (from B-20h)
    const again = (await alertsOf('live')).filter((n) => n.search_phrase === 'sneker');
    expect(again.map((n) => [n.languages, n.zero_result_searches])).toEqual([
      [['de', 'de-ch'], 3],
      [['de', 'de-ch'], 3],
    ]);
    expect(receiver.calls).toHaveLength(1);
  });

  it('does not raise an open term again while a language it finds nothing in is still unhandled', async () => {
    // Open for de and de-ch (above). Both get handled, but the term now finds nothing in fr too: still unhandled.
    expect((await entity('lp-sneker-de', { searchPhrases: ['sneker'], language: 'de' })).status).toBe(201);
    expect((await entity('lp-sneker-ch', { searchPhrases: ['sneker'], language: 'de-CH' })).status).toBe(201);
    await seed('live', searches(3, { ts: B + 4 * HOUR + 10 * 60_000, phrase: 'sneker', language: 'fr', hits: 0 }));
    const sneker = async () => (await alertsOf('live')).filter((n) => n.search_phrase === 'sneker');
    await tick(B + 5 * HOUR + 3 * 60_000);
    expect(await sneker()).toHaveLength(2);
    expect(receiver.calls).toHaveLength(1);
    // Handled in fr too: closed, nothing raised; unhandled again in fr: raised again, for fr.
    expect((await entity('lp-sneker-fr', { searchPhrases: ['sneker'], language: 'fr' })).status).toBe(201);
    await tick(B + 6 * HOUR + 3 * 60_000);
    expect(await sneker()).toHaveLength(2);
    expect((await entity('lp-sneker-fr', undefined, 'DELETE')).status).toBe(200);
    await tick(B + 7 * HOUR + 3 * 60_000);
    expect((await sneker()).map((n) => [n.languages, n.zero_result_searches])).toEqual([
      [['fr'], 3], // newest first
      [['de', 'de-ch'], 3],
      [['de', 'de-ch'], 3],
    ]);
  });

  it('raises a zero-hit rate spike against the median of the same hour on the 7 days before, once for that hour', async () => {
    const gaps = (n: number, ts: number) =>
      Array.from({ length: n }, (_, i) => ({ ts: ts + i, phrase: `gap ${i}`, language: 'de', hits: 0, bot: false }));
    const finds = (n: number, ts: number) => searches(n, { ts, phrase: 'coat', language: 'de', hits: 5 });
    const hour = B - 1 * HOUR; // evaluated at B + 3 min
    const baseline: Search[] = [];
    for (let d = 1; d <= 7; d++) {
      const zero = d === 3 ? 2 : 1; // rates 0.1 six times and 0.2 once: the median is 0.1
      baseline.push(...gaps(zero, hour - d * DAY + 60_000), ...finds(10 - zero, hour - d * DAY + 120_000));
    }
    await seed('stage', [
      ...baseline,
      ...gaps(3, hour - HOUR + 60_000), // the hour before: 20 searches at 0.15, only 0.05 above its own baseline (none)
      ...finds(17, hour - HOUR + 120_000),
      ...gaps(8, hour + 60_000), // the hour: 20 searches at 0.4
      ...finds(12, hour + 120_000),
      ...finds(5, hour + 60_000).map((s) => ({ ...s, bot: true, hits: 0 })), // bots never count
    ]);
    expect((await configure('stage', { webhookConfig: { url: '' }, alertConfig: { url: `${failing.url}/down` } })).status).toBe(200);

    await tick(hour + 3 * 60_000); // evaluates [hour-1h, hour): no baseline days, nothing raised
    expect(await alertsOf('stage')).toEqual([]);
    // The first evaluation of the hour fails in whichever process wins its claim (as if it then stopped): the other
    // process, whose claim lost, evaluates the hour a minute later.
    const unavailable = [a, b].map((app) =>
      jest.spyOn(app.app.get(AlertsRepository), 'hourRates').mockRejectedValueOnce(new Error('store unavailable')),
    );
    await tick(B + 3 * 60_000);
    expect(await alertsOf('stage')).toEqual([]);
    const failed = unavailable.map((spy) => spy.mock.calls.length > 0);
    expect(failed.filter(Boolean)).toHaveLength(1);
    unavailable.forEach((spy) => spy.mockRestore());
    await tick(
      B + 4 * 60_000,
      [a, b].filter((_, i) => !failed[i]),
    );
    const [spike, ...more] = await alertsOf('stage');
    expect(more).toEqual([]);
    expect(spike).toEqual(
      expect.objectContaining({
        type: 'alert',
        alert: 'zero-hit-rate-spike',
        hour: new Date(hour).toISOString(),
        searches: 20,
        zero_hit_rate: 0.4,
        baseline_rate: 0.1,
      }),
    );
    // The alert URL answered 500: one call, not retried, recorded as a notification.
    expect(failing.calls.map((c) => (c.body as { alert: string }).alert)).toEqual(['zero-hit-rate-spike']);
    const deliveries = (await notifications('stage')).filter((n) => n.kind === 'webhook-failed');
    expect(deliveries.map((n) => n.message)).toEqual([`Alert delivery to ${failing.url} failed: answered 500`]);
    await tick(B + HOUR + 3 * 60_000);
    expect(await alertsOf('stage')).toHaveLength(1);
  });

  it('lists only the alerts with GET /notifications?type=alert, and refuses an unknown type', async () => {
    const res = await http<AlertNotification[]>(`${a.url}/notifications?type=alert`, { headers: headers('stage') });
    expect([res.status, res.headers['x-total-count'], res.body.map((n) => n.alert)]).toEqual([200, '1', ['zero-hit-rate-spike']]);
    const all = await http<AlertNotification[]>(`${a.url}/notifications`, { headers: headers('stage') });
    expect(all.headers['x-total-count']).toBe('2'); // and the failed POST
    const bad = await http<{ message: string }>(`${a.url}/notifications?type=alerts`, { headers: headers('stage') });
    expect([bad.status, bad.body.message]).toEqual([400, ['type must be one of webhook-failed, events-rejected, alert']]);
  });

  it('does not raise an hour again after a restart', async () => {
    await b.close();
    b = await startApp(env);
    followClock(b);
    await tick(B + 3 * 60_000, [b]);
    // Evaluated again, the spike would be the same notification (its id is made from the hour), but a second POST
    // and a second failed delivery.
    expect((await alertsOf('stage')).map((n) => n.alert)).toEqual(['zero-hit-rate-spike']);
    expect(failing.calls).toHaveLength(1);
    expect((await notifications('stage')).filter((n) => n.kind === 'webhook-failed')).toHaveLength(1);
  });

  it('turns alerts off with null, and keeps them when a PUT leaves alertConfig out', async () => {
    expect((await configure('stage', { webhookConfig: { url: '' } })).body).toEqual({
      webhookConfig: { url: '' },
      algoliaIndexes: {},
      alertConfig: { url: `${failing.url}/down`, minSearches: 20, zeroHitRateJump: 0.1 },
    });
    expect((await configure('stage', { webhookConfig: { url: '' }, alertConfig: null })).body).toEqual({
      webhookConfig: { url: '' },
      algoliaIndexes: {},
      alertConfig: null,
    });
    const read = await http(`${a.url}/configuration`, { headers: headers('stage') });
    expect(read.body).toEqual({ webhookConfig: { url: '' }, alertConfig: null, algoliaIndexes: {} });
  });

  it.each([
    [{ minSearches: -1 }, /^alertConfig\.minSearches must not be less than 0/],
    [{ minSearches: 2.5 }, /^alertConfig\.minSearches must be an integer/],
    [{ zeroHitRateJump: 0 }, /^alertConfig\.zeroHitRateJump must be a number greater than 0 and at most 1$/],
    [{ zeroHitRateJump: 1.5 }, /^alertConfig\.zeroHitRateJump must be a number greater than 0 and at most 1$/],
    [{ zeroHitRateJump: '0.2' }, /^alertConfig\.zeroHitRateJump must be a number greater than 0 and at most 1$/],
    [{ url: 'ftp://hooks.example.com' }, /^alertConfig\.url must be an absolute http\(s\) URL or ""/],
    [5, /^alertConfig must be an object/],
  ])('refuses alertConfig %j with a 400 naming the field, and keeps the stored one', async (alertConfig, message) => {
    const res = await configure('stage', { webhookConfig: { url: '' }, alertConfig });
    expect(res.status).toBe(400);
    expect([(res.body as { message: string | string[] }).message].flat().join('; ')).toMatch(message);
    expect((await http(`${a.url}/configuration`, { headers: headers('stage') })).body).toEqual({
      webhookConfig: { url: '' },
      algoliaIndexes: {},
      alertConfig: null,
    });
  });
});

describe('a first evaluation over many unhandled terms', () => {
  let t: TestApp;
  let now = B;

  beforeAll(async () => {
    t = await startApp();
    jest.spyOn(t.app.get(AlertClock), 'now').mockImplementation(() => now);
  });
  afterAll(() => t.close());

  it(`raises at most ${MAX_TERM_ALERTS} term alerts an hour, the most searched first, and the rest in the next hours`, async () => {
    const terms = Array.from({ length: MAX_TERM_ALERTS + 3 }, (_, i) => `gap ${String(i).padStart(2, '0')}`);
    await t.app.get(ClickHouseService).insert(
      'search_events',
      terms.flatMap((phrase, i) =>
        Array.from({ length: i < 2 ? 1 : 2 }, (_, k) => searchRow({ ts: B - 2 * HOUR + k, phrase, language: 'de', hits: 0, bot: false })),
      ),
    );
    const body = JSON.stringify({ webhookConfig: { url: '' }, alertConfig: { minSearches: 1 } });
    expect(
      (await http(`${t.url}/configuration`, { method: 'PUT', headers: { ...basicHeader(), 'content-type': 'application/json' }, body }))
        .status,
    ).toBe(200);
    const raised = async () =>
      (await http<AlertNotification[]>(`${t.url}/notifications?type=alert&_end=100`, { headers: basicHeader() })).body.map(
        (n) => n.search_phrase,
      );
    now = B + 3 * 60_000;
    await t.app.get(AlertsService).tick();
    const first = await raised();
    expect(first).toHaveLength(MAX_TERM_ALERTS);
    expect(first).not.toContain('gap 00'); // one search each: the least searched wait
    expect(first).not.toContain('gap 01');
    now += HOUR;
    await t.app.get(AlertsService).tick();
    expect((await raised()).sort()).toEqual(terms);
  });
});

describe('an hour claimed by a process that was killed before it evaluated the hour', () => {
  let t: TestApp;
  let now = B;
  const hourKey = (hourEnd: number) => `hour:${new Date(hourEnd - HOUR).toISOString()}`;
  /** A claim as a process writes it, stamped `ago` seconds ago by the store, with `more` rows of that claim after it. */
  const plant = async (hourEnd: number, ago: number, more: string[] = []) => {
    const ch = t.app.get(ClickHouseService);
    const [{ at }] = await ch.query<{ at: string }>(`SELECT toString(now64(6) - INTERVAL {ago:UInt32} SECOND) AS at`, { ago });
    const claim = `dead-${hourEnd}`;
    await ch.insert(
      'alert_log',
      ['claim', ...more].map((state) => ({ customer: 'demo', instance: 'live', key: hourKey(hourEnd), state, languages: [], claim, at })),
    );
  };
  const raised = async () =>
    (await http<AlertNotification[]>(`${t.url}/notifications?type=alert&_end=100`, { headers: basicHeader() })).body.map(
      (n) => n.search_phrase,
    );

  beforeAll(async () => {
    t = await startApp();
    jest.spyOn(t.app.get(AlertClock), 'now').mockImplementation(() => now);
    await t.app.get(ClickHouseService).insert(
      'search_events',
      [0, 1, 2].map((k) => searchRow({ ts: B - 2 * HOUR + k, phrase: 'sneker', language: 'de', hits: 0, bot: false })),
    );
    const body = JSON.stringify({ webhookConfig: { url: '' }, alertConfig: { minSearches: 3 } });
    const res = await http(`${t.url}/configuration`, {
      method: 'PUT',
      headers: { ...basicHeader(), 'content-type': 'application/json' },
      body,
    });
    expect(res.status).toBe(200);
  });
  afterAll(() => t.close());

  it('leaves the hour to its claim for 2 minutes, then evaluates it here and raises the alert once', async () => {
    await plant(B, 0); // the dead process claimed [B-1h, B) just now: as far as anyone can tell, it is still evaluating
    now = B + 3 * 60_000;
    await t.app.get(AlertsService).tick();
    expect(await raised()).toEqual([]);

    await plant(B + HOUR, 3 * 60); // it claimed [B, B+1h) 3 minutes ago and never finished: the claim expired
    now = B + HOUR + 3 * 60_000;
    await t.app.get(AlertsService).tick();
    await t.app.get(AlertsService).tick();
    expect(await raised()).toEqual(['sneker']);
  });

  it('never evaluates again an hour whose claim finished its evaluation, however old the claim is', async () => {
    const evaluations = jest.spyOn(t.app.get(AlertsRepository), 'openTerms');
    await plant(B + 2 * HOUR, 3 * 60, ['evaluated']);
    now = B + 2 * HOUR + 3 * 60_000;
    await t.app.get(AlertsService).tick();
    expect(evaluations).not.toHaveBeenCalled();
  });
});
