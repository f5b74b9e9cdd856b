import { basicHeader, http } from './test-app';

/**
 * POST /events with Basic auth, one request per body, `perTick` at once and then 100 ms later the next ones: the
 * traffic of many search frontends. Resolves every answer's status and how many seconds it all took.
 */
export async function postSpread(
  url: string,
  bodies: readonly string[],
  perTick: number,
): Promise<{ statuses: number[]; seconds: number }> {
  const started = Date.now();
  const answers: Array<Promise<number>> = [];
  for (const [i, body] of bodies.entries()) {
    answers.push(
      http(`${url}/events`, { method: 'POST', headers: { ...basicHeader(), 'content-type': 'application/json' }, body }).then(
        (r) => r.status,
      ),
    );
    if (i % perTick === perTick - 1) {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const statuses = await Promise.all(answers);
  return { statuses, seconds: (Date.now() - started) / 1000 };
}

/** How many inserts into `table` a `jest.spyOn(ch, 'insert')` saw. */
export const insertsInto = (spy: jest.SpyInstance, table: string): number => spy.mock.calls.filter(([name]) => name === table).length;

/** Events per request of postFlood: the most one request may carry. */
export const FLOOD_EVENTS_PER_REQUEST = 10_000;

/**
 * POST /events with Basic auth, `requests` requests of FLOOD_EVENTS_PER_REQUEST events at once (phrases named by
 * `tag`), while the test keeps storage or the broker slow: checks that some are refused at once as busy (503,
 * Retry-After: 1, nothing accepted) and the rest answered 202. Resolves how many events were answered 202.
 */
export async function postFlood(url: string, requests: number, tag: string): Promise<number> {
  const body = (i: number) =>
    JSON.stringify({
      events: Array.from({ length: FLOOD_EVENTS_PER_REQUEST }, (_, j) => ({ phrase: `${tag} ${i} ${j % 100}`, language: 'de', hits: 1 })),
    });
  const answers = await Promise.all(
    Array.from({ length: requests }, (_, i) =>
      http(`${url}/events`, { method: 'POST', headers: { ...basicHeader(), 'content-type': 'application/json' }, body: body(i) }),
    ),
  );
  const busy = answers.filter((a) => a.status === 503);
  const accepted = answers.filter((a) => a.status === 202).length;
  expect(busy.length).toBeGreaterThan(0);
  expect(accepted + busy.length).toBe(requests);
  expect(busy[0].headers['retry-after']).toBe('1');
  expect((busy[0].body as { message: string }).message).toMatch(/intake is busy.*nothing of this request was accepted/);
  return accepted * FLOOD_EVENTS_PER_REQUEST;
}
