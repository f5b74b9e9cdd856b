import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { ClickHouseService, MIGRATIONS, checkCluster, pendingMigrations } from '@app/clickhouse';
import type { AppConfig } from '@app/config';
import { answerBody, errorBody } from './all-exceptions.filter';

/** How often a waiting app looks for the migrations again. */
const POLL_MS = 2000;

/**
 * MIGRATE_ON_START=false: before the app itself starts (so nothing of it writes), waits until `npm run cli -- migrate`
 * has applied every migration. Meanwhile HOST:PORT answers the probes: /health/live 200, /health/ready 503 naming the
 * first pending migration, every other request 503 with Retry-After. Resolves, once nothing is pending, to what closes
 * that stand-in: the caller closes it when the app is about to listen, so the port is without an answer only between
 * the two.
 */
export async function waitForMigrations(config: AppConfig): Promise<() => Promise<void>> {
  const ch = new ClickHouseService(config);
  try {
    await checkCluster(ch, config.clickhouse.cluster);
    let reason = await pendingReason(ch);
    if (reason === undefined) {
      return () => Promise.resolve();
    }
    const server = createServer((req, res) => answerWhileWaiting(req, res, reason ?? 'migrations are pending'));
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(config.port, config.host, resolve));
    process.stdout.write(`${reason}; waiting (MIGRATE_ON_START=false)\n`);
    while (reason !== undefined) {
      await sleep(POLL_MS);
      reason = await pendingReason(ch).catch(() => reason);
    }
    return async () => {
      const closed = new Promise((resolve) => server.close(resolve));
      server.closeAllConnections();
      await closed;
    };
  } finally {
    await ch.onApplicationShutdown();
  }
}

async function pendingReason(ch: ClickHouseService): Promise<string | undefined> {
  const [first] = await pendingMigrations(ch, MIGRATIONS);
  return first === undefined ? undefined : `migration ${first.id} is pending: run \`npm run cli -- migrate\``;
}

function answerWhileWaiting(req: IncomingMessage, res: ServerResponse, reason: string): void {
  const path = (req.url ?? '/').split('?')[0];
  const [status, body] =
    path === '/health/live'
      ? [200, { status: 'ok' }]
      : path === '/health/ready'
        ? [503, { status: 'unavailable', storage: 'up', migrated: false, reason }]
        : [503, answerBody(path, 503, errorBody(503, reason))];
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...(status === 503 ? { 'retry-after': '5' } : {}) });
  res.end(JSON.stringify(body));
}
