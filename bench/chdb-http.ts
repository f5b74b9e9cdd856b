/**
 * A stand-in ClickHouse server for the benchmarks: the embedded engine (chdb) behind the part of ClickHouse's HTTP
 * interface @clickhouse/client uses, in a process of its own. It lets the ingest app run with CLICKHOUSE_URL and
 * no engine loaded, so its own memory can be measured here, where there is no ClickHouse server. Not a server to
 * run anything on: one query at a time, settings and query parameters applied with SET in its one session.
 * Prints the port it listens on (PORT, or any free one); DATA_DIR is its data directory. INSERT_DELAY_MS=<min>-<max>
 * makes storage slow for the tests: each INSERT waits a random time in that range before it is applied (inserts
 * wait side by side). INSERT_DELAY_TABLES (comma-separated table names without the database) limits the wait to
 * inserts into those tables, so an app's start (its migrations' own inserts) is not slowed with the intake it is
 * meant to slow.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { Session } from 'chdb';
// By path, not through '@app/clickhouse': the stand-in loads nothing of the library it does not use.
import { insertTarget } from '../libs/clickhouse/src/insert-target';

/** URL parameters that are not settings. */
const NOT_SETTINGS = new Set(['query', 'query_id', 'database', 'session_id', 'role', 'default_format', 'enable_http_compression']);

const sqlString = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

const session = new Session(process.env.DATA_DIR ?? '/tmp/chdb-http');
const [delayMin, delayMax] = (process.env.INSERT_DELAY_MS ?? '0-0').split('-').map(Number);
const delayedTables =
  process.env.INSERT_DELAY_TABLES === undefined
    ? undefined
    : new Set(
        process.env.INSERT_DELAY_TABLES.split(',')
          .map((name) => name.trim())
          .filter(Boolean),
      );
/** Whether this statement waits INSERT_DELAY_MS: an INSERT, into one of INSERT_DELAY_TABLES when the variable is set. */
function delayed(sql: string): boolean {
  if (delayMax <= 0) {
    return false;
  }
  const target = insertTarget(sql);
  return target !== undefined && (delayedTables === undefined || delayedTables.has(target));
}
let queue: Promise<unknown> = Promise.resolve();

async function body(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) {
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

async function run(url: URL, text: string): Promise<string> {
  // SETs for the parameters and settings of this request, then the request's own statement (FORMAT included).
  const sets = [...url.searchParams]
    .filter(([name]) => !NOT_SETTINGS.has(name))
    .map(([name, value]) => `${name} = ${name.startsWith('param_') ? sqlString(value) : /^-?\d+$/.test(value) ? value : sqlString(value)}`);
  if (sets.length > 0) {
    await session.queryAsync(`SET ${sets.join(', ')}`, { format: 'CSV' });
  }
  const insert = url.searchParams.get('query');
  const result = await session.queryAsync(insert ? `${insert}\n${text}` : text, { format: 'TabSeparated' });
  return result.text();
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (url.pathname === '/ping') {
    res.end('Ok.\n');
    return;
  }
  const text = await body(req);
  if (delayed(url.searchParams.get('query') ?? text)) {
    await new Promise((r) => setTimeout(r, delayMin + Math.random() * (delayMax - delayMin)));
  }
  const answer = queue.then(() => run(url, text));
  queue = answer.catch(() => undefined);
  try {
    const out = await answer;
    res.writeHead(200, { 'Content-Type': 'text/plain; charset=UTF-8', 'X-ClickHouse-Query-Id': url.searchParams.get('query_id') ?? '' });
    res.end(out);
  } catch (err) {
    res.writeHead(500, { 'Content-Type': 'text/plain; charset=UTF-8', 'X-ClickHouse-Exception-Code': '0' });
    res.end((err as Error).message);
  }
}

const server = createServer((req, res) => void handle(req, res));
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`PORT ${typeof address === 'object' && address ? address.port : 0}\n`);
});
