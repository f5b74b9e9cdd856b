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

/** A loopback port nobody listens on (the system picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}
