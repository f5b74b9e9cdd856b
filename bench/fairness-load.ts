/**
 * The flooding customer of the fairness benchmark, in a process of its own so that its work never delays the
 * measuring client: FAIRNESS_CONNECTIONS requests in flight at once, half `GET /search-terms?since=30d`, half the
 * same as CSV, each sent again as soon as it is answered, until stdin closes. FAIRNESS_MODE `polite`: a 429 is
 * sent again after its Retry-After; `impatient`: at once (autocannon). Prints `STARTED`, then `RESULT {json}` with
 * the answers by status and the share of one core this process used (it runs on the same machine as the service).
 */
import autocannon from 'autocannon';
import { get } from './host-request';

const BASE = process.env.FAIRNESS_BASE ?? '';
const HOST = process.env.FAIRNESS_HOST ?? '';
const AUTHORIZATION = process.env.FAIRNESS_AUTHORIZATION ?? '';
const CONNECTIONS = Number(process.env.FAIRNESS_CONNECTIONS ?? 100);
const HEAVY_PATHS = ['/search-terms?since=30d', '/search-terms?since=30d&format=csv'];

const stopped = new Promise<void>((resolve) => {
  process.stdin.resume();
  process.stdin.once('end', resolve);
  process.stdin.once('close', resolve);
});

async function polite(): Promise<Record<string, number>> {
  const statuses: Record<string, number> = {};
  let stop = false;
  void stopped.then(() => (stop = true));
  const client = async (i: number) => {
    while (!stop) {
      const answer = await get(BASE, HEAVY_PATHS[i % 2], HOST, AUTHORIZATION).catch(() => ({ status: 0, retryAfter: 1 }));
      statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
      if (answer.status === 429 || answer.status === 0) {
        await new Promise((r) => setTimeout(r, (answer.retryAfter ?? 1) * 1000));
      }
    }
  };
  const clients = Array.from({ length: CONNECTIONS }, (_, i) => client(i));
  process.stdout.write('STARTED\n');
  await Promise.all(clients);
  return statuses;
}

async function impatient(): Promise<Record<string, number>> {
  let finished!: (result: autocannon.Result) => void;
  const done = new Promise<autocannon.Result>((resolve) => (finished = resolve));
  const instance = autocannon(
    {
      url: BASE,
      connections: CONNECTIONS,
      duration: 3600,
      headers: { host: HOST, authorization: AUTHORIZATION },
      requests: HEAVY_PATHS.map((path) => ({ method: 'GET', path })),
    },
    (_err, result) => finished(result),
  );
  process.stdout.write('STARTED\n');
  await stopped;
  instance.stop();
  const result = await done;
  const statuses: Record<string, number> = {};
  for (const [status, s] of Object.entries(result.statusCodeStats ?? {})) {
    statuses[status] = s.count ?? 0;
  }
  if (result.errors > 0) {
    statuses['0'] = result.errors;
  }
  return statuses;
}

const started = { cpu: process.cpuUsage(), at: performance.now() };
(process.env.FAIRNESS_MODE === 'impatient' ? impatient() : polite())
  .then((statuses) => {
    const { user, system } = process.cpuUsage(started.cpu);
    const cpuPercent = Math.round((user + system) / 10 / (performance.now() - started.at));
    process.stdout.write(`RESULT ${JSON.stringify({ statuses, cpuPercent })}\n`);
    process.exit(0);
  })
  .catch((err) => {
    process.stderr.write(`${(err as Error).stack}\n`);
    process.exit(1);
  });
