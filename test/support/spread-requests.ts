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
