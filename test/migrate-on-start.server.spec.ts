import { freshDir, runScript, startService } from './support/processes';
import { eventually } from './support/storage';
import { storageEnv } from './support/storage-mode';
import { uniqueDatabase } from './support/test-app';

/**
 * MIGRATE_ON_START=false and CLICKHOUSE_CLUSTER against a real server (or the loopback cluster with TEST_CLUSTER=1):
 * an app that finds migrations pending writes nothing and answers ready 503 naming the first, until
 * `npm run cli -- migrate` has applied them; a cluster name the server lacks stops the start with one line.
 */
const QUERY_APP = 'apps/query/src/main.js';

describe('migrations applied by a one-shot job (MIGRATE_ON_START=false)', () => {
  it('waits with ready 503 naming the first pending migration, writes nothing, and serves once `cli migrate` ran', async () => {
    const env: Record<string, string> = {
      ...storageEnv(),
      DATA_DIR: freshDir('migrate-later'),
      CLICKHOUSE_DATABASE: uniqueDatabase('m'),
      MIGRATE_ON_START: 'false',
      SERVICE_BASIC_AUTH: 'ops:migrate-later-password',
      LOG_LEVEL: 'warn',
    };
    const service = await startService(QUERY_APP, env, 30_000, [], '/health/live');
    try {
      // A refused connection reads as not ready: the stand-in that answers while the app waits closes right before the
      // app listens.
      const ready = async () => {
        const res = await fetch(`${service.url}/health/ready`).catch(() => undefined);
        return { status: res?.status ?? 0, body: ((await res?.json()) ?? {}) as { migrated?: boolean; reason?: string } };
      };
      expect(await ready()).toEqual({
        status: 503,
        body: {
          status: 'unavailable',
          storage: 'up',
          migrated: false,
          reason: 'migration 0001-auth is pending: run `npm run cli -- migrate`',
        },
      });
      const refused = await fetch(`${service.url}/search-terms`, {
        headers: { authorization: 'Basic b3BzOm1pZ3JhdGUtbGF0ZXItcGFzc3dvcmQ=' },
      });
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('5');
      // Nothing written: not even the database exists.
      const sql = `SELECT count() FROM system.databases WHERE name = '${env.CLICKHOUSE_DATABASE}'`;
      const databases = await fetch(`${env.CLICKHOUSE_URL}/?query=${encodeURIComponent(sql)}`);
      expect(await databases.text()).toBe('0\n');

      const migrated = await runScript('apps/query/src/cli.js', ['migrate'], env);
      expect(migrated.code).toBe(0);
      expect(migrated.stdout).toMatch(/every migration is applied \(the last: \d{4}-[\w-]+\)\n$/);
      expect(await eventually(ready, (r) => r.status === 200, 30_000)).toMatchObject({ status: 200, body: { migrated: true } });
      const answered = await fetch(`${service.url}/search-terms`, {
        headers: { authorization: 'Basic b3BzOm1pZ3JhdGUtbGF0ZXItcGFzc3dvcmQ=' },
      });
      expect(answered.status).toBe(200);
      // Again: nothing left to apply.
      expect(await runScript('apps/query/src/cli.js', ['migrate'], env)).toMatchObject({ code: 0 });
    } finally {
      await service.stop();
    }
  }, 120_000);

  it('stops the start with one line naming CLICKHOUSE_CLUSTER and the clusters the server has', async () => {
    const result = await runScript('apps/query/src/main.js', [], {
      ...storageEnv(),
      CLICKHOUSE_CLUSTER: 'no_such_cluster',
      CLICKHOUSE_DATABASE: uniqueDatabase('m'),
      DATA_DIR: freshDir('no-cluster'),
      SERVICE_BASIC_AUTH: 'ops:no-cluster-password',
      LOG_LEVEL: 'warn',
    });
    expect(result.code).toBe(1);
    const has = process.env.TEST_CLUSTER === '1' ? 'loopback' : 'none (no remote_servers in its configuration)';
    expect(result.stderr).toBe(
      `Cannot start:\n  CLICKHOUSE_CLUSTER=no_such_cluster: the server at CLICKHOUSE_URL has no such cluster; it has ${has}\n`,
    );
  }, 60_000);
});
