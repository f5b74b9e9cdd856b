/**
 * The INSERT statements a service sends, per table, from its `storage_inserts_total{table}` counter: GET /metrics
 * sampled every 250 ms on a connection of its own, and the most inserts per second in any one-second window.
 */
import { Agent, get } from 'node:http';

export interface InsertSample {
  /** performance.now() when the answer arrived. */
  at: number;
  counts: Record<string, number>;
}

/** The `storage_inserts_total` series of a Prometheus text answer, by table. */
export function parseInserts(text: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const m of text.matchAll(/^storage_inserts_total\{table="([^"]*)"\} (\d+(?:\.\d+)?(?:e\+\d+)?)$/gm)) {
    counts[m[1]] = Number(m[2]);
  }
  return counts;
}

/**
 * Per table, the most inserts per second over any one-second window of the samples: from each sample to the first
 * one at least a second later, the inserts between them divided by the time between them (a second and a little
 * more when the samples come every 250 ms; longer only when the service answered /metrics late).
 */
export function maxPerSecond(samples: readonly InsertSample[]): Record<string, number> {
  const tables = new Set(samples.flatMap((s) => Object.keys(s.counts)));
  const max: Record<string, number> = {};
  for (const table of tables) {
    let best = 0;
    for (let i = 0, j = 0; i < samples.length; i++) {
      j = Math.max(j, i + 1);
      while (j < samples.length && samples[j].at - samples[i].at < 1000) {
        j++;
      }
      if (j === samples.length) {
        break;
      }
      const inserts = (samples[j].counts[table] ?? 0) - (samples[i].counts[table] ?? 0);
      best = Math.max(best, (inserts * 1000) / (samples[j].at - samples[i].at));
    }
    max[table] = Math.round(best);
  }
  return max;
}

/** Inserts per table between the first and the last sample. */
export function insertsBetween(samples: readonly InsertSample[]): Record<string, number> {
  if (samples.length < 2) {
    return {};
  }
  const first = samples[0].counts;
  const last = samples[samples.length - 1].counts;
  return Object.fromEntries(Object.keys(last).map((table) => [table, last[table] - (first[table] ?? 0)]));
}

/** Samples GET /metrics every `everyMs` (the next one once the last is answered) until stopped. */
export class InsertSampler {
  readonly samples: InsertSample[] = [];
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 1 });
  private running = true;
  private readonly loop: Promise<void>;

  constructor(
    private readonly base: string,
    everyMs = 250,
  ) {
    this.loop = (async () => {
      while (this.running) {
        const due = performance.now() + everyMs;
        const text = await this.metrics().catch(() => undefined);
        if (text !== undefined) {
          this.samples.push({ at: performance.now(), counts: parseInserts(text) });
        }
        await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())));
      }
    })();
  }

  /** The samples taken from `from` to `to` (performance.now() times), with the last one before `from`. */
  between(from: number, to: number): InsertSample[] {
    let first = 0;
    while (first + 1 < this.samples.length && this.samples[first + 1].at <= from) {
      first++;
    }
    return this.samples.slice(first).filter((s) => s.at <= to);
  }

  /** The latest sample (one taken from now on when `fresh`). */
  async latest(fresh = false): Promise<InsertSample | undefined> {
    if (fresh) {
      const n = this.samples.length;
      while (this.samples.length === n && this.running) {
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    return this.samples[this.samples.length - 1];
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
    this.agent.destroy();
  }

  private metrics(): Promise<string> {
    return metricsText(this.base, this.agent);
  }
}

/** GET /metrics: the Prometheus text. */
export function metricsText(base: string, agent?: Agent): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = get(`${base}/metrics`, { agent, timeout: 10_000 }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.once('end', () => (res.statusCode === 200 ? resolve(text) : reject(new Error(`/metrics answered ${res.statusCode}`))));
      res.once('error', reject);
    });
    req.once('timeout', () => req.destroy(new Error('/metrics timed out')));
    req.once('error', reject);
  });
}

/** The sum of a metric's series whose labels contain `labels` (`kind="search-event"`), from a Prometheus text. */
export function metricSum(text: string, name: string, labels = ''): number {
  let sum = 0;
  for (const m of text.matchAll(new RegExp(`^${name}(?:\\{([^}]*)\\})? (\\S+)$`, 'gm'))) {
    if ((m[1] ?? '').includes(labels)) {
      sum += Number(m[2]);
    }
  }
  return sum;
}
