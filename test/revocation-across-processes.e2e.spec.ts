import { ClickHouseService } from '@app/clickhouse';
import { eventually } from './support/storage';
import { basicHeader, createKey, hmacHeaders, http, startApp, uniqueDatabase, type TestApp } from './support/test-app';

describe('revocation seen by another process and storage failure', () => {
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    // Two applications on the same storage, each with its own key cache: what two processes see.
    const database = uniqueDatabase();
    a = await startApp({ CLICKHOUSE_DATABASE: database });
    b = await startApp({ CLICKHOUSE_DATABASE: database });
  });
  afterAll(async () => {
    await a.close();
    await b.close();
  });

  it('stops accepting a revoked key on the other process within 5 s', async () => {
    const key = await createKey(a.url, ['secret:read']);
    const onB = () => http(`${b.url}/secret`, { headers: hmacHeaders(key.secret) });
    expect((await onB()).status).toBe(200); // B has now cached the key as active
    const admin = await createKey(a.url, ['secret:write']);
    const revokedAt = Date.now();
    expect((await http(`${a.url}/secret/${key.id}`, { method: 'DELETE', headers: hmacHeaders(admin.secret) })).status).toBe(200);
    let status = 200;
    while (status === 200 && Date.now() - revokedAt < 6000) {
      status = (await onB()).status;
      if (status === 200) {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    expect(status).toBe(401);
    expect(Date.now() - revokedAt).toBeLessThan(5000);
  });

  it("limits a key to its instances on the other process too (B's key cache holds them)", async () => {
    const created = await http<{ secret: string; instances: string[] }>(`${a.url}/secret`, {
      method: 'POST',
      headers: { ...basicHeader(), 'content-type': 'application/json' },
      body: JSON.stringify({ description: 'stage reader', permissions: ['secret:read'], instances: ['stage'] }),
    });
    expect([created.status, created.body.instances]).toEqual([201, ['stage']]);
    const onB = async (instance: string) =>
      (await http(`${b.url}/secret`, { headers: { ...hmacHeaders(created.body.secret), 'x-service-instance': instance } })).status;
    // B may answer from keys it cached before the key was made, for at most 2 s.
    expect(
      await eventually(
        () => onB('stage'),
        (status) => status === 200,
        5_000,
      ),
    ).toBe(200);
    expect(await onB('live')).toBe(401);
    expect(await onB('stage')).toBe(200);
  });

  it('answers /health with 503 once storage stops answering', async () => {
    expect((await http(`${b.url}/health`)).status).toBe(200);
    await b.app.get(ClickHouseService).client.close();
    // A probe's answer is reused for up to a second (ClickHouseService.ping): the next ping finds storage gone.
    const res = await eventually(
      () => http(`${b.url}/health`),
      (r) => r.status !== 200,
      10_000,
    );
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ status: 'unavailable', storage: 'down' });
  });
});
