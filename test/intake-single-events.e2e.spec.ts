import { randomUUID } from 'node:crypto';
import { ClickHouseService } from '@app/clickhouse';
import { storedCounts } from './support/storage';
import { FLOOD_EVENTS_PER_REQUEST, insertsInto, postFlood, postSpread } from './support/spread-requests';
import { createKey, hmacHeaders, http, nonce, startApp, type TestApp } from './support/test-app';
import { MAX_ITEMS_IN_FLIGHT } from '@app/intake';

/**
 * POST /events as search frontends send it: one event per request, signed, many at once
 * (docs/decisions/0039-one-insert-for-many-requests.md).
 */
describe('single-event POST /events at once (embedded transport)', () => {
  let t: TestApp;
  let secret: string;
  beforeAll(async () => {
    t = await startApp({ RATE_LIMIT_PER_MINUTE: '0' });
    secret = (await createKey(t.url, ['search:write'])).secret;
  });
  afterAll(() => t.close());

  const eventBody = (id: string) => JSON.stringify({ events: [{ id, phrase: `single ${id.slice(0, 8)}`, language: 'de', hits: 3 }] });
  const post = (body: string, n = nonce()) => http(`${t.url}/events`, { method: 'POST', headers: hmacHeaders(secret, body, n), body });

  it('stores every event answered 202 exactly once, under insert failures, retries and nonce replays', async () => {
    const ch = t.app.get(ClickHouseService);
    const insert = ch.insert.bind(ch);
    // Inserts into search_events fail as a lost connection would, in bursts of four (a write is tried four times,
    // RETRY_DELAYS_MS, before its requests are answered 503): four of every twenty.
    let calls = 0;
    const failing = jest.spyOn(ch, 'insert').mockImplementation((table, rows, token) => {
      if (table === 'search_events' && Math.floor(calls++ / 4) % 5 === 4) {
        return Promise.reject(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
      }
      return insert(table, rows, token);
    });
    const before = await storedCounts(t);
    const ids = Array.from({ length: 300 }, () => randomUUID());
    const replays: Array<Promise<number>> = [];
    const sendUntilStored = async (id: string, i: number): Promise<number> => {
      const body = eventBody(id);
      for (let attempt = 0; attempt < 20; attempt++) {
        const n = nonce();
        const res = await post(body, n);
        if (i % 10 === 0 && attempt === 0) {
          replays.push(post(body, n).then((r) => r.status));
        }
        if (res.status === 202) {
          return attempt;
        }
        expect([res.status, res.headers['retry-after'] !== undefined]).toEqual([503, true]);
      }
      throw new Error(`event ${id} was never stored`);
    };
    // Sixteen senders at a time (small bodies do not count against an address's four unverified bodies).
    const attempts: number[] = [];
    const queue = ids.map((id, i) => [id, i] as const);
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        for (let next = queue.shift(); next; next = queue.shift()) {
          attempts.push(await sendUntilStored(...next));
        }
      }),
    );
    // A retry of requests already answered 202 (the same ids under new nonces) stores nothing more.
    const repeated = await Promise.all(ids.slice(0, 50).map((id) => post(eventBody(id))));
    failing.mockRestore();
    expect(repeated.map((r) => r.status)).toEqual(Array(50).fill(202));
    expect(await Promise.all(replays)).toEqual(Array(30).fill(401));
    expect(attempts.some((a) => a > 0)).toBe(true);
    const after = await storedCounts(t);
    expect([after.events - before.events, after.distinctEvents - before.distinctEvents, after.rollup - before.rollup]).toEqual([
      300, 300, 300,
    ]);
  });

  it('shares inserts: 500 single-event requests (Basic) over about two seconds make at most about 10 inserts a second', async () => {
    const ch = t.app.get(ClickHouseService);
    const inserts = jest.spyOn(ch, 'insert');
    const bodies = Array.from({ length: 500 }, () => eventBody(randomUUID()));
    const { statuses, seconds } = await postSpread(t.url, bodies, 25);
    const counted = { events: insertsInto(inserts, 'search_events'), rejected: insertsInto(inserts, 'rejected_events') };
    inserts.mockRestore();
    expect(statuses).toEqual(Array(500).fill(202));
    expect(counted.events).toBeLessThanOrEqual(Math.ceil(seconds * 10) + 1);
    expect(counted.rejected).toBe(0);
  });

  it('refuses requests at once while MAX_ITEMS_IN_FLIGHT events wait for a slow insert (503, Retry-After), every 202 stored', async () => {
    const ch = t.app.get(ClickHouseService);
    const insert = ch.insert.bind(ch);
    const slow = jest.spyOn(ch, 'insert').mockImplementation(async (table, rows, token) => {
      if (table === 'search_events') {
        await new Promise((r) => setTimeout(r, 1500));
      }
      return insert(table, rows, token);
    });
    const before = await storedCounts(t);
    const accepted = await postFlood(t.url, Math.ceil(MAX_ITEMS_IN_FLIGHT / FLOOD_EVENTS_PER_REQUEST) + 4, 'flood');
    slow.mockRestore();
    const after = await storedCounts(t);
    expect(after.events - before.events).toBe(accepted);
  });
});
