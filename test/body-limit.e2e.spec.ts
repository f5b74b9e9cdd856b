import { request } from 'node:http';
import { announce } from './support/announce';
import { LEGACY_SECRET, basicHeader, hmacHeaders, http, startApp, type TestApp } from './support/test-app';

describe('a body whose Content-Length is over the limit is refused before it is read', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  it('answers 413 at once on an ordinary route (1 MB), with or without credentials, and closes the connection', async () => {
    for (const headers of [{}, basicHeader()]) {
      const res = await announce(t.url, 'POST', '/secret', 1024 * 1024 + 1, headers);
      expect(res.status).toBe(413);
      expect(res.head).toMatch(/\r\nconnection: close\r\n/i);
      expect(res.ms).toBeLessThan(2_000);
    }
  });

  it('answers 413 at once on the intake routes over their 10 MB limit', async () => {
    const res = await announce(t.url, 'POST', '/events', 10 * 1024 * 1024 + 1, hmacHeaders(LEGACY_SECRET));
    expect(res.status).toBe(413);
  });

  it('waits for a body within the limit (the check is the announced length, not a timeout)', async () => {
    const res = await announce(t.url, 'POST', '/secret', 1024 * 1024, basicHeader(), 500);
    expect(res.status).toBeUndefined();
  });

  it('names the limit in the 413 body', async () => {
    const res = await http(`${t.url}/secret`, {
      method: 'POST',
      headers: { ...basicHeader(), 'content-type': 'application/json' },
      body: 'x'.repeat(1024 * 1024 + 1),
    });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({
      statusCode: 413,
      error: 'Payload Too Large',
      message: 'Request body exceeds the limit of 1048576 bytes for this route',
    });
  });

  it('cuts off a body sent without Content-Length (chunked) at the route limit with 413', async () => {
    const res = await new Promise<{ status?: number; body: string }>((resolve, reject) => {
      const req = request(
        `${t.url}/secret`,
        { method: 'POST', headers: { ...basicHeader(), 'content-type': 'application/json', 'transfer-encoding': 'chunked' } },
        (r) => {
          let body = '';
          r.on('data', (c: Buffer) => (body += c.toString()));
          r.on('end', () => resolve({ status: r.statusCode, body }));
        },
      );
      req.on('error', reject);
      for (let i = 0; i < 3; i++) {
        req.write('x'.repeat(1024 * 1024));
      }
      req.end();
    });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toMatchObject({ statusCode: 413, error: 'Payload Too Large' });
  });
});
