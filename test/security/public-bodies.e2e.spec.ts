import { connect, type Socket } from 'node:net';
import { ClickHouseService } from '@app/clickhouse';
import { createCollectorKey } from '../support/insights';
import { startApp, type TestApp } from '../support/test-app';

/**
 * Bodies that anyone may send (docs/security.md): an OPTIONS request's body is never read, a collector key's (public,
 * in every shop page) is held like an unverified HMAC body (4 over 64 KB per address at once, then 503), and what
 * one address may store through POST /1/events is counted in rows (COLLECT_ROWS_PER_MINUTE), not only in requests.
 * The mechanisms with small inputs; their costs are in `npm run bench:attacks`.
 */
describe('bodies anyone may send (e2e over HTTP)', () => {
  let t: TestApp;
  let collector: string;
  beforeAll(async () => {
    t = await startApp({ COLLECT_ROWS_PER_MINUTE: '100' });
    collector = String((await createCollectorKey(t.url)).body.secret);
  });
  afterAll(() => t.close());

  /** A request's head sent over its own connection, the body withheld; resolves with what the server answered. */
  const head = (lines: string[]): { socket: Socket; answer: Promise<string> } => {
    const port = Number(new URL(t.url).port);
    const socket = connect(port, '127.0.0.1');
    let received = '';
    const answer = new Promise<string>((resolve) => {
      socket.on('data', (chunk: Buffer) => {
        received += chunk.toString();
        if (received.includes('\r\n\r\n')) {
          resolve(received);
        }
      });
      socket.on('close', () => resolve(received));
    });
    socket.write(`${lines.join('\r\n')}\r\nHost: 127.0.0.1\r\n\r\n`);
    return { socket, answer };
  };

  it('answers an OPTIONS request with a body as a preflight without reading the body, and closes the connection', async () => {
    // 1 MB announced, none sent: the answer comes anyway, so nothing waited for the body.
    const { socket, answer } = head([
      'OPTIONS /1/events HTTP/1.1',
      'Origin: https://shop.example',
      'Access-Control-Request-Method: POST',
      'Content-Type: application/json',
      'Content-Length: 1048576',
    ]);
    const text = await answer;
    socket.destroy();
    expect(text).toMatch(/^HTTP\/1\.1 204 /);
    expect(text.toLowerCase()).toContain('connection: close');
  });

  it('never reads an OPTIONS body on a route without a preflight either (chunked), and closes the connection', async () => {
    const { socket, answer } = head(['OPTIONS /search-terms HTTP/1.1', 'Content-Type: application/json', 'Transfer-Encoding: chunked']);
    const text = await answer;
    socket.destroy();
    expect(text).toMatch(/^HTTP\/1\.1 404 /);
    expect(text.toLowerCase()).toContain('connection: close');
  });

  it('refuses with 413 a collector request of more rows than COLLECT_ROWS_PER_MINUTE (waiting would never help)', async () => {
    const res = await fetch(`${t.url}/1/events?x-algolia-application-id=demo&x-algolia-api-key=${collector}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        events: Array.from({ length: 6 }, (_, i) => ({
          eventType: 'view',
          eventName: 'Viewed',
          index: 'products',
          userToken: `big-${i}`,
          objectIDs: Array.from({ length: 20 }, (_, o) => `sku-${o}`),
        })),
      }),
    });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { message: string }).message).toMatch(/COLLECT_ROWS_PER_MINUTE/);
  });

  it('holds 4 collector bodies over 64 KB per address at once: 503 with Retry-After beyond', async () => {
    const path = `/1/events?x-algolia-application-id=demo&x-algolia-api-key=${collector}`;
    const bodies = Array.from({ length: 6 }, () =>
      head([`POST ${path} HTTP/1.1`, 'Content-Type: application/json', `Content-Length: ${100 * 1024}`]),
    );
    // The two beyond the address's share are answered at once; the four held wait for bodies that never come.
    const answered = await new Promise<string[]>((resolve) => {
      const texts: string[] = [];
      for (const b of bodies) {
        void b.answer.then((text) => {
          texts.push(text);
          if (texts.length === 2) {
            resolve(texts);
          }
        });
      }
    });
    for (const b of bodies) {
      b.socket.destroy();
    }
    expect(answered.map((text) => text.split('\r\n')[0])).toEqual(['HTTP/1.1 503 Service Unavailable', 'HTTP/1.1 503 Service Unavailable']);
    expect(answered.every((text) => /retry-after: \d+/i.test(text))).toBe(true);
  });

  it('counts the objects of the events an address sends: 429 once COLLECT_ROWS_PER_MINUTE is spent, nothing stored', async () => {
    const send = (events: number, objects: number) =>
      fetch(`${t.url}/1/events?x-algolia-application-id=demo&x-algolia-api-key=${collector}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          events: Array.from({ length: events }, (_, i) => ({
            eventType: 'view',
            eventName: 'Viewed',
            index: 'products',
            userToken: `u-${i}`,
            objectIDs: Array.from({ length: objects }, (_, o) => `sku-${i}-${o}`),
          })),
        }),
      });
    // 4 events of 20 objects: 80 of the 100 rows; the next request of 2 x 20 would go beyond.
    expect((await send(4, 20)).status).toBe(200);
    const refused = await send(2, 20);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await refused.json()) as { message: string }).message).toMatch(/COLLECT_ROWS_PER_MINUTE/);
    // What is left of the budget still takes a smaller request; once it is all spent, the next is refused before its
    // body is read.
    expect((await send(1, 20)).status).toBe(200);
    const unread = await send(1, 1);
    expect(unread.status).toBe(429);
    expect(((await unread.json()) as { message: string }).message).toMatch(/budget is spent/);
    const ch = t.app.get(ClickHouseService);
    const [{ n }] = await ch.query<{ n: string }>(`SELECT toString(count()) AS n FROM ${ch.table('interactions')} WHERE type = 'view'`);
    expect(Number(n)).toBe(100);
  });
});
