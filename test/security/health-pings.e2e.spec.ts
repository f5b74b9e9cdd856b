import { ClickHouseService } from '@app/clickhouse';
import { http, startApp, type TestApp } from '../support/test-app';

/**
 * The public probes cost storage one query at a time, whatever their number (docs/security.md): a burst of
 * `/health` and `/health/ready` shares the storage ping in flight.
 */
describe('a burst of public health probes (e2e over HTTP)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  it('sends storage one ping for 50 probes that arrive while it is in flight', async () => {
    const ch = t.app.get(ClickHouseService);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const probed = jest.spyOn(ch, 'ping');
    const query = jest.spyOn(ch, 'query');
    let pings = 0;
    query.mockImplementation(async function (this: ClickHouseService, sql: string, ...rest: unknown[]) {
      if (sql === 'SELECT 1 AS ok') {
        pings += 1;
        await held;
      }
      return (ClickHouseService.prototype.query as (...args: unknown[]) => Promise<never>).call(this, sql, ...rest);
    });
    try {
      const probes = Array.from({ length: 50 }, (_, i) => http<{ status: string }>(`${t.url}/health${i % 2 ? '/ready' : ''}`));
      // Every probe has asked for the ping while the first one is in flight (a condition, not a delay).
      while (probed.mock.calls.length < 50) {
        await new Promise((r) => setImmediate(r));
      }
      release();
      const answers = await Promise.all(probes);
      expect(answers.map((a) => [a.status, a.body.status])).toEqual(answers.map(() => [200, 'ok']));
      expect(pings).toBe(1);
    } finally {
      query.mockRestore();
      probed.mockRestore();
    }
  });
});
