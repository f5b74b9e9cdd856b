import { connect } from 'node:net';
import type { Service } from '../support/processes';
import { JWT_SECRET, jwtHeader } from '../support/test-app';
import { basicAuthorization, bulkyEvents, countOf, memoryOf, signedEvent, sleep, startTarget, timedHealth, upload } from './attack';

/**
 * Credentials before bytes: what the headers decide (Basic, JWT, the HMAC headers' form, a reused nonce, the
 * instance) is decided before a byte of the body is read, so a burst of big bodies without valid credentials costs
 * the process neither memory nor parsing. The real process, with a heap limit that buffering the bodies would break.
 */
describe('a burst of 10 MB bodies without valid credentials', () => {
  let target: Service;
  beforeAll(async () => {
    target = await startTarget({ SERVICE_JWT_SECRET: JWT_SECRET });
  }, 90_000);
  afterAll(() => target?.stop());

  const BURST = 40;

  it('answers each 401 unread, stays alive, gives the memory back and stores the signed event sent meanwhile once', async () => {
    const pid = target.child.pid as number;
    const body = bulkyEvents();
    const before = memoryOf(pid).rssMb;
    let highest = before;
    const sampler = setInterval(() => {
      if (target.child.exitCode === null) {
        highest = Math.max(highest, memoryOf(pid).rssMb);
      }
    }, 50);
    const customer = signedEvent('sent-during-the-burst');
    const [outcomes, accepted] = await Promise.all([
      Promise.all(Array.from({ length: BURST }, () => upload(target.url, { path: '/events', body }))),
      sleep(300).then(() => fetch(`${target.url}/events`, { method: 'POST', headers: customer.headers, body: customer.body })),
    ]);
    clearInterval(sampler);
    expect(target.child.exitCode).toBeNull();
    expect(outcomes.map((o) => o.status)).toEqual(new Array(BURST).fill(401));
    expect(outcomes.every((o) => o.headers.connection === 'close')).toBe(true);
    expect(accepted.status).toBe(202);
    // Reading the bodies would take 110-325 MB each; not reading them takes next to nothing.
    expect(highest - before).toBeLessThan(100);
    let after = memoryOf(pid).rssMb;
    for (let waited = 0; after - before > 100 && waited < 30_000; waited += 1000) {
      await sleep(1000);
      after = memoryOf(pid).rssMb;
    }
    expect(after - before).toBeLessThan(100);
    expect((await timedHealth(target.url)).status).toBe(200);
    expect(await countOf(target.url, 'sent-during-the-burst')).toBe(1);
  }, 120_000);

  it.each([
    ['no credentials', {}],
    ['a wrong Basic password', { authorization: basicAuthorization('not-the-password') }],
    [
      'a JWT signed with another key',
      jwtHeader({ permissions: ['search.write'] }, { expiresIn: 300 }, 'another-secret-of-at-least-32-chars!'),
    ],
    ['a hash not of its form', { 'x-service-nonce': '0123456789abcdef', 'x-service-hash': 'xyz' }],
    ['an unknown instance', { authorization: basicAuthorization(), 'x-service-instance': 'nowhere' }],
  ])(
    'refuses %s with 401 and closes the connection before the body arrives',
    async (_name, headers: Record<string, string>) => {
      // The body is sent slowly, over 20 s: an answer within the first seconds was given without it.
      const started = Date.now();
      const outcome = await upload(target.url, { path: '/events', headers, body: bulkyEvents(), pauseMs: 100, chunkBytes: 50_000 });
      expect(outcome.status).toBe(401);
      expect(outcome.headers.connection).toBe('close');
      expect(Date.now() - started).toBeLessThan(5_000);
    },
    30_000,
  );

  it('keeps a refused connection open for seconds after its 401, unread, so a client still writing reads the answer', async () => {
    const { port } = new URL(target.url);
    // allowHalfOpen: the server's FIN after its answer must not make this client stop writing by itself.
    const socket = connect({ port: Number(port), host: '127.0.0.1', allowHalfOpen: true });
    let answer = '';
    let answeredAt = 0;
    const closed = new Promise<number>((resolve) => {
      socket.on('data', (c: Buffer) => {
        answer += c.toString();
        answeredAt ||= Date.now();
      });
      socket.on('error', () => resolve(Date.now()));
      socket.on('close', () => resolve(Date.now()));
    });
    socket.write('POST /events HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10000000\r\n\r\n');
    // The client keeps writing, 64 KB every 20 ms, as a slow uploader does, until the connection ends.
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const writer = setInterval(() => socket.writable && socket.write(chunk), 20);
    const end = await closed;
    clearInterval(writer);
    expect(answer).toMatch(/^HTTP\/1\.1 401 /);
    expect(answer.toLowerCase()).toContain('connection: close');
    // Node's own close would reset the connection within milliseconds of the answer; this one lingers 5 s.
    expect(end - answeredAt).toBeGreaterThan(3_000);
    socket.destroy();
  }, 30_000);
});
