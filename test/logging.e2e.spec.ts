import { signRequest } from '@app/auth';
import { basicHeader, http, nonce } from './support/test-app';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { freshDir, runScript, startService, type Service } from './support/processes';

describe('structured logs (a real process, stdout)', () => {
  let service: Service;
  const password = 'log-test-password-42';
  const secret = 'legacy-secret-for-log-test-0123456789';
  beforeAll(async () => {
    service = await startService('apps/standalone/src/main.js', {
      DATA_DIR: freshDir('logging'),
      SERVICE_BASIC_AUTH: `ops:${password}`,
      SERVICE_LEGACY_SECRET: secret,
      LOG_LEVEL: 'info',
    });
  });
  afterAll(() => service.stop());

  it('writes JSON lines with the request id, and never credentials, hashes or nonces', async () => {
    const listed = await http(`${service.url}/secret`, { headers: { ...basicHeader('ops', password), 'x-request-id': 'req-test-1' } });
    expect(listed.status).toBe(200);
    expect(listed.headers['x-request-id']).toBe('req-test-1');
    const n = nonce();
    const body = JSON.stringify({ events: [{ phrase: 'logged', language: 'en', hits: 1 }] });
    const hash = signRequest(secret, n, body);
    const sent = await http(`${service.url}/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-service-nonce': n, 'x-service-hash': hash },
      body,
    });
    expect(sent.status).toBe(202);
    expect(sent.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    await new Promise((r) => setTimeout(r, 300));

    const lines = service
      .stdout()
      .split('\n')
      .filter((l) => l.trim().length > 0);
    const records = lines.map(
      (l) => JSON.parse(l) as { req?: { id?: string; headers?: Record<string, string> }; res?: { statusCode: number }; msg?: string },
    );
    const first = records.find((r) => r.req?.id === 'req-test-1');
    expect(first).toMatchObject({ req: { id: 'req-test-1' }, res: { statusCode: 200 } });
    expect(first?.req?.headers?.authorization).toBe('[redacted]');
    expect(records.find((r) => r.req?.id === sent.headers['x-request-id'])?.req?.headers?.['x-service-hash']).toBe('[redacted]');
    const everything = service.stdout() + service.stderr();
    for (const leaked of [password, Buffer.from(`ops:${password}`).toString('base64'), secret, hash, n]) {
      expect(everything).not.toContain(leaked);
    }
  });

  it('never writes an Insights API key (query string or header) nor an erased user token', async () => {
    const created = await http(`${service.url}/secret`, {
      method: 'POST',
      headers: { ...basicHeader('ops', password), 'content-type': 'application/json' },
      body: JSON.stringify({ description: 'storefront', preset: 'collector' }),
    });
    expect(created.status).toBe(201);
    const key = (created.body as { secret: string }).secret;
    const body = JSON.stringify({
      events: [{ eventType: 'view', eventName: 'Viewed', index: 'products', userToken: 'u1', objectIDs: ['a'] }],
    });
    const inQuery = await http(`${service.url}/1/events?X-Algolia-Application-Id=demo&X-Algolia-API-Key=${key}`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body,
    });
    const inHeaders = await http(`${service.url}/1/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-algolia-application-id': 'demo', 'x-algolia-api-key': key },
      body,
    });
    expect([inQuery.status, inHeaders.status]).toEqual([200, 200]);
    const shopper = 'shopper-mail@example.com';
    const erased = await http(`${service.url}/1/usertokens/${encodeURIComponent(shopper)}`, {
      method: 'DELETE',
      headers: basicHeader('ops', password),
    });
    expect(erased.status).toBe(204);
    await new Promise((r) => setTimeout(r, 300));
    const everything = service.stdout() + service.stderr();
    for (const leaked of [key, shopper, encodeURIComponent(shopper)]) {
      expect(everything).not.toContain(leaked);
    }
    expect(everything).toContain('/1/usertokens/[redacted]');
  });
});

describe('structured logs of a process that fails to start', () => {
  it('writes only JSON lines to stdout, the failure among them, when the app cannot be built', async () => {
    // The data directory is a file: the embedded engine cannot open it while the app's modules are being built,
    // before the app's own logger exists.
    const notADirectory = path.join(freshDir('logging-start'), 'file');
    writeFileSync(notADirectory, '');
    const run = await runScript('apps/ingest/src/main.js', [], {
      DATA_DIR: notADirectory,
      KAFKA_BROKERS: '127.0.0.1:1',
      PORT: '0',
      LOG_LEVEL: 'info',
    });
    expect(run.code).not.toBe(0);
    const records = run.stdout
      .split('\n')
      .filter((l) => l.trim().length > 0)
      .map((l) => JSON.parse(l) as { level: number; msg?: string; err?: { message?: string } });
    expect(records.find((r) => r.level >= 50 && `${r.msg} ${r.err?.message}`.includes(notADirectory))).toBeDefined();
  });
});
