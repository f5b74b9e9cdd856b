import { connect } from 'node:net';

/**
 * Sends only the head of a request whose Content-Length announces `declared` bytes, then a few bytes of body,
 * and keeps the connection open: a server that waits for the body answers nothing within `waitMs`.
 */
export function announce(
  url: string,
  method: string,
  path: string,
  declared: number,
  headers: Record<string, string> = {},
  waitMs = 3_000,
): Promise<{ status?: number; head: string; ms: number }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect(Number(port), hostname);
    let received = '';
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      const status = /^HTTP\/1\.1 (\d{3})/.exec(received)?.[1];
      resolve({ status: status ? Number(status) : undefined, head: received, ms: Date.now() - started });
    };
    const timer = setTimeout(finish, waitMs);
    socket.on('error', reject);
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      if (received.includes('\r\n\r\n')) {
        finish();
      }
    });
    const lines = [
      `${method} ${path} HTTP/1.1`,
      `Host: ${hostname}`,
      'Content-Type: application/json',
      `Content-Length: ${declared}`,
      ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    ];
    socket.write(`${lines.join('\r\n')}\r\n\r\n{"de`);
  });
}
