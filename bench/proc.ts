import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** Peak resident set size of a process (VmHWM), in MB; 0 when it cannot be read. */
export function peakRssMb(pid: number): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : 0;
  } catch {
    return 0;
  }
}

/** Resident set size of a process now (VmRSS), in MB; 0 when it cannot be read (it has ended). */
export function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

export function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) {
    return NaN;
  }
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/** A row of a Markdown table: `| a | b |`. */
export function tableRow(...cells: (string | number)[]): string {
  return `| ${cells.join(' | ')} |`;
}

/**
 * A port nobody listens on, outside the kernel's range for outgoing connections (Linux: 32768-60999), so a client
 * socket opened by another test between this check and the service's listen cannot take it. The system's own pick
 * (port 0) came from that range, and a service once found its port taken by a connection in CI.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (await bindable(port)) {
      return port;
    }
  }
  throw new Error('no free port between 20000 and 31999 after 50 tries');
}

/** Whether a server can listen on `port` on every interface (as the apps do) right now. */
function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, () => server.close(() => resolve(true)));
  });
}
