import { randomUUID } from 'node:crypto';
import { exitSignal, freePort, freshDir, runScript, startService, type Service } from './support/processes';
import { answeredCounts, eventually } from './support/storage';

/**
 * The embedded default killed with SIGKILL while senders post events with ids and retry every request until it gets
 * its 202 (an OOM kill, `docker kill`, a reboot: the engine dies with the process). The first kill is made to land
 * in the middle of an insert, after its raw part and before its views (test/support/hold-insert.js); the others land
 * wherever they land. Afterwards the raw table and every rollup count exactly the acknowledged events, and so do
 * the answers (docs/architecture.md, "A kill at any moment").
 */
const STANDALONE = 'apps/standalone/src/main.js';
const HOLD = ['hold-insert.js'];
const KILLS = 3;
/** Requests acknowledged between two kills: the kill lands while the senders keep the intake busy. */
const REQUESTS_PER_ROUND = 40;
const SENDERS = 4;
const EVENTS_PER_REQUEST = 20;
/** Clicks in each request, on its searches that found results. */
const CLICKS_PER_REQUEST = 2;
const PHRASES = ['wool hat', 'rain boots', 'red dress', 'sneaker', 'scarf'];

describe('the embedded service killed under traffic', () => {
  let service: Service | undefined;
  const basic = 'ops:kill-test-password';
  const authorization = `Basic ${Buffer.from(basic).toString('base64')}`;
  afterAll(async () => {
    await service?.stop();
  });

  // Starts take up to 30 s each on CI's two cores, beside other suites: the limit only ends a hung run.
  it('stores every acknowledged event once, in the raw table, every rollup and every answer', async () => {
    const dir = freshDir('kill');
    const env = {
      DATA_DIR: dir,
      SERVICE_BASIC_AUTH: basic,
      PORT: String(await freePort()),
      LOG_LEVEL: 'warn',
      // every table exact within 2 s of a repair's cause; the insert held and killed: the fifth
      STORAGE_CHECK_MS: '1000',
      ENGAGEMENT_REFRESH_MS: '1000',
      HOLD_INSERT_AT: '5',
      HOLD_MARKER: `${dir}/held`,
    };
    service = await startService(STANDALONE, env, 90_000, HOLD);
    const url = service.url;
    let acknowledged = 0;
    /** Every 202's body, checked after the run (an expect in the loop's try would be caught as a failed request). */
    const answers: Array<{ accepted: number; rejected: unknown[] }> = [];
    let requests = 0;
    let sending = true;

    /** One request, sent again (same ids, so the same retry token) until it is acknowledged. */
    const post = async (body: string): Promise<void> => {
      for (;;) {
        try {
          const res = await fetch(`${url}/events`, {
            method: 'POST',
            headers: { authorization, 'content-type': 'application/json' },
            body,
          });
          if (res.status === 202) {
            answers.push((await res.json()) as { accepted: number; rejected: unknown[] });
            acknowledged += EVENTS_PER_REQUEST;
            requests += 1;
            return;
          }
          await res.body?.cancel();
        } catch {
          // refused or reset: the process is down or was killed mid-request; the retry goes to the next one
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const sender = async () => {
      while (sending) {
        const ts = Date.now() - 3_600_000;
        const events = Array.from({ length: EVENTS_PER_REQUEST }, (_, i) => ({
          id: randomUUID(),
          phrase: PHRASES[(requests + i) % PHRASES.length],
          language: 'de',
          hits: i % 3 === 0 ? 0 : 5,
          ts: ts + i,
          // Dimensions, so that their rollups are compared with the raw rows too.
          filters: ['brand:Acme', `size:${i % 4}`],
          tags: i % 2 === 0 ? ['mobile'] : [],
          country: 'de',
          userToken: `user-${i % 7}`,
        }));
        const clicks = events
          .filter((e) => e.hits > 0)
          .slice(0, CLICKS_PER_REQUEST)
          .map((e, i) => ({ id: randomUUID(), type: 'click', searchId: e.id, objectId: `p-${i}`, position: i + 1, ts: e.ts + 100 }));
        await post(JSON.stringify({ events: [...events, ...clicks] }));
      }
    };
    const until = async (count: number) => {
      while (requests < count) {
        await new Promise((r) => setTimeout(r, 20));
      }
    };

    const senders = Array.from({ length: SENDERS }, sender);
    await exitSignal(service); // the held insert's kill
    service = await startService(STANDALONE, env, 90_000, HOLD);
    for (let kill = 1; kill <= KILLS; kill++) {
      await until(kill * REQUESTS_PER_ROUND);
      service.child.kill('SIGKILL');
      await exitSignal(service);
      service = await startService(STANDALONE, env, 90_000, HOLD);
    }
    await until((KILLS + 1) * REQUESTS_PER_ROUND);
    sending = false;
    await Promise.all(senders);

    // Exact within 2 x STORAGE_CHECK_MS of the last half-done insert (a wait for the answers, not a timing target).
    const clicked = await eventually(
      async () => {
        const res = await fetch(`${url}/search-stats?since=1d&engagement=true`, { headers: { authorization } });
        return ((await res.json()) as { totals: { clicks: number } }).totals.clicks;
      },
      (clicks) => clicks === requests * CLICKS_PER_REQUEST,
      30_000,
    );
    const answered = await eventually(
      () => answeredCounts(url, authorization),
      (c) => c.stats === acknowledged && c.lists === acknowledged,
      30_000,
    );
    await service.stop();
    service = undefined;
    // The CLI reads the tables as the service left them: its own check at start is off.
    const totals = await runScript('apps/query/src/cli.js', ['totals', 'demo'], { ...env, STORAGE_CHECK_MS: '0' });
    expect(totals.code).toBe(0);
    const stored = JSON.parse(totals.stdout) as { events: number; rollups: Record<string, number> };

    expect(acknowledged).toBe(requests * EVENTS_PER_REQUEST);
    expect(answers.filter((a) => a.accepted !== EVENTS_PER_REQUEST + CLICKS_PER_REQUEST || a.rejected.length > 0)).toEqual([]);
    expect({ raw: stored.events, ...answered, clicked }).toEqual({
      raw: acknowledged,
      stats: acknowledged,
      lists: acknowledged,
      clicked: requests * CLICKS_PER_REQUEST,
    });
    expect(Object.entries(stored.rollups).filter(([, n]) => n !== acknowledged)).toEqual([]);
  }, 600_000);
});
