import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { freePort } from './support/processes';

// The port a test gives a service must not be one the kernel hands to outgoing connections meanwhile: CI once saw
// "port 46567 is in use" from a service whose port the system had picked from that range.
describe('freePort', () => {
  it('picks ports outside the range for outgoing connections, and each is free to listen on', async () => {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    for (let i = 0; i < 20; i++) {
      const port = await freePort();
      expect(port < low || port > high).toBe(true);
      const server = createServer();
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, () => resolve());
      });
      await new Promise((r) => server.close(r));
    }
  });
});
