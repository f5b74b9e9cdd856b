import { randomUUID } from 'node:crypto';
import { ClickHouseService, MIGRATIONS, MigratorService } from '@app/clickhouse';
import { startClickHouseCluster } from '../bench/clickhouse-cluster';
import { startClickHouseServer, type ClickHouseServer } from '../bench/clickhouse-server';
import { freshDir, runScript } from './support/processes';
import { eventually, storedCounts } from './support/storage';
import { storageEnv } from './support/storage-mode';
import { LEGACY_SECRET, basicHeader, hmacHeaders, http, startApp, uniqueDatabase, type TestApp } from './support/test-app';

/**
 * Cluster mode on two shards on loopback (TEST_CLUSTER=1: test/support/storage-global.ts; plain engines): the rows
 * are spread over both shards, the answers are one server's on the same events, a request retried through the other
 * host is stored once, and two apps migrating at once apply each migration once. The server-path suites run on the
 * same cluster beside this one (`TEST_CLUSTER=1 npm run test:server`).
 */
const [FIRST, SECOND] = (process.env.TEST_CLICKHOUSE_URLS ?? '').split(',');
const HOUR = 3_600_000;

const INSTANCES = ['live', 'stage', 'shop3', 'shop4'];

/** What a merchandiser reads of each instance: both lists (with their totals) and the stats, of the last day. */
async function answers(url: string): Promise<unknown> {
  const read = async (instance: string, query: string) => {
    const res = await http<unknown>(`${url}${query}`, { headers: { ...basicHeader(), 'x-service-instance': instance } });
    return { status: res.status, total: res.headers['x-total-count'], body: res.body };
  };
  const all: Record<string, unknown> = {};
  for (const instance of INSTANCES) {
    all[instance] = {
      found: await read(instance, '/search-terms?since=1d&hits=true&_end=1000'),
      zero: await read(instance, '/search-terms?since=1d&hits=false&_end=1000'),
      stats: await read(instance, '/search-stats?since=1d'),
      bots: await read(instance, '/search-terms?since=1d&includeBotTraffic=true&_end=1000'),
    };
  }
  return all;
}

async function send(url: string, events: object[], instance = 'live'): Promise<{ status: number; accepted: number }> {
  const body = JSON.stringify({ events });
  const headers = { ...hmacHeaders(LEGACY_SECRET, body), 'x-service-instance': instance };
  const res = await http<{ accepted: number }>(`${url}/events`, { method: 'POST', headers, body });
  return { status: res.status, accepted: res.body.accepted };
}

describe('cluster mode on a two-shard loopback cluster', () => {
  const apps: TestApp[] = [];
  let single: ClickHouseServer | undefined;
  afterAll(async () => {
    for (const app of apps) {
      await app.close();
    }
    await single?.stop();
  });

  it('spreads the rows over both shards and answers as one server does on the same events', async () => {
    const database = uniqueDatabase('c');
    const clustered = await startApp({ CLICKHOUSE_DATABASE: database, SERVICE_INSTANCES: INSTANCES.join(',') });
    apps.push(clustered);
    single = await startClickHouseServer();
    const alone = await startApp({ CLICKHOUSE_URL: single.url, CLICKHOUSE_CLUSTER: '', SERVICE_INSTANCES: INSTANCES.join(',') });
    apps.push(alone);

    const now = Date.now();
    // 150 events for each of 4 instances: 4 (customer, instance) keys, which the sharding key spreads.
    const events = Array.from({ length: 150 }, (_, i) => ({
      phrase: `cluster term ${i % 37}`,
      language: ['en', 'de', 'fr'][i % 3],
      hits: i % 5 === 0 ? 0 : i % 11,
      ts: new Date(now - (i % 20) * HOUR).toISOString(),
      ...(i % 13 === 0 ? { userAgent: 'Googlebot/2.1 (+http://www.google.com/bot.html)' } : {}),
    }));
    for (const url of [clustered.url, alone.url]) {
      for (const instance of INSTANCES) {
        expect(await send(url, events.slice(0, 150 - INSTANCES.indexOf(instance) * 10), instance)).toMatchObject({ status: 202 });
      }
    }

    const perShard = await Promise.all(
      [FIRST, SECOND].map(async (url) => {
        const sql = `SELECT count() FROM \`${database}\`.search_events_local`;
        return Number(await (await fetch(`${url}/?query=${encodeURIComponent(sql)}`)).text());
      }),
    );
    expect(perShard.every((n) => n > 0)).toBe(true);
    expect(perShard[0] + perShard[1]).toBe(150 + 140 + 130 + 120);
    expect(await answers(clustered.url)).toEqual(await answers(alone.url));
  }, 120_000);

  it('stores a request retried through the other host once', async () => {
    const database = uniqueDatabase('c');
    const viaSecond = await startApp({ CLICKHOUSE_DATABASE: database });
    apps.push(viaSecond);
    const viaFirst = await startApp({ CLICKHOUSE_DATABASE: database, CLICKHOUSE_URL: FIRST });
    apps.push(viaFirst);
    const events = Array.from({ length: 40 }, (_, i) => ({ id: randomUUID(), phrase: `retried ${i}`, language: 'en', hits: 1 }));
    expect(await send(viaSecond.url, events)).toEqual({ status: 202, accepted: 40 });
    expect(await send(viaFirst.url, events)).toEqual({ status: 202, accepted: 40 });
    expect(await storedCounts(viaFirst)).toEqual({ events: 40, distinctEvents: 40, rollup: 40, rejected: 0 });
    expect(await storedCounts(viaSecond)).toEqual({ events: 40, distinctEvents: 40, rollup: 40, rejected: 0 });
  }, 120_000);

  it('applies each migration once when two apps migrate at once through different hosts', async () => {
    const database = uniqueDatabase('c');
    const [a, b] = await Promise.all([
      startApp({ CLICKHOUSE_DATABASE: database }),
      startApp({ CLICKHOUSE_DATABASE: database, CLICKHOUSE_URL: FIRST }),
    ]);
    apps.push(a, b);
    const applied = [...a.app.get(MigratorService).applied, ...b.app.get(MigratorService).applied].sort();
    expect(applied).toEqual(MIGRATIONS.map((m) => m.id).sort());
    const [{ n }] = await a.app.get(ClickHouseService).query<{ n: string }>(`SELECT count() AS n FROM \`${database}\`.schema_migrations`);
    expect(Number(n)).toBe(MIGRATIONS.length);
  }, 120_000);

  it('answers 503 naming storage while a shard is down, never a partial answer, and a retry afterwards stores once', async () => {
    const outage = await startClickHouseCluster('outage');
    try {
      const app = await startApp({
        CLICKHOUSE_URL: outage.servers[0].url,
        CLICKHOUSE_CLUSTER: 'outage',
        SERVICE_INSTANCES: INSTANCES.join(','),
      });
      apps.push(app);
      const batches = INSTANCES.map((instance, i) => ({
        instance,
        events: Array.from({ length: 10 + i }, (_, n) => ({ id: randomUUID(), phrase: `outage ${n}`, language: 'en', hits: n })),
      }));
      await outage.servers[1].stop();
      const during = await Promise.all(batches.map((b) => send(app.url, b.events, b.instance)));
      // Every (customer, instance) whose shard is down is refused; none is answered 5xx other than 503.
      expect(during.filter((r) => r.status !== 202 && r.status !== 503)).toEqual([]);
      expect(during.some((r) => r.status === 503)).toBe(true);
      for (const instance of INSTANCES) {
        const read = await http<{ message: string }>(`${app.url}/search-terms?since=1d`, {
          headers: { ...basicHeader(), 'x-service-instance': instance },
        });
        expect([read.status, read.body.message]).toEqual([503, expect.stringMatching(/storage/i)]);
      }

      await outage.restart(1);
      // The engine in its server mode (clickhouse-local) sometimes aborts (SIGABRT, nothing written) after a
      // Distributed query met a shard that was down: a host that ended is started again, as a crashed server would be.
      const revive = async () => {
        for (const [i, server] of outage.servers.entries()) {
          if (server.child.exitCode !== null || server.child.signalCode !== null) {
            await outage.restart(i);
          }
        }
      };
      // Retried as a client does after a 503 (Retry-After): the first attempts may still meet a connection to the
      // restarted shard that the first host had open; every 503 on the way stored nothing twice.
      for (const b of batches) {
        const answered = await eventually(
          async () => {
            await revive();
            return send(app.url, b.events, b.instance);
          },
          (r) => r.status !== 503,
        );
        expect(answered).toEqual({ status: 202, accepted: b.events.length });
      }
      await revive();
      const stored = await app.app
        .get(ClickHouseService)
        .query<{ n: string }>(`SELECT sum(sign) AS n FROM ${app.config.clickhouse.database}.search_events`);
      expect(Number(stored[0].n)).toBe(10 + 11 + 12 + 13);
    } finally {
      await outage.stop();
    }
  }, 180_000);

  it('adopts the tables of a single server with every count kept, and refuses to adopt twice', async () => {
    const database = uniqueDatabase('a');
    const old = await startClickHouseServer();
    try {
      const before = await startApp({
        CLICKHOUSE_URL: old.url,
        CLICKHOUSE_CLUSTER: '',
        CLICKHOUSE_DATABASE: database,
        SERVICE_INSTANCES: INSTANCES.join(','),
      });
      for (const [i, instance] of INSTANCES.entries()) {
        const events = Array.from({ length: 40 + i * 7 }, (_, n) => ({
          id: randomUUID(),
          phrase: `adopted ${n % 9}`,
          language: n % 2 ? 'en' : 'de',
          hits: n % 4,
        }));
        expect(await send(before.url, events, instance)).toMatchObject({ status: 202 });
      }
      const expected = await answers(before.url);
      const counts = await storedCounts(before);
      await before.close();

      const env = { ...storageEnv(), CLICKHOUSE_DATABASE: database, DATA_DIR: freshDir('adopt'), SERVICE_BASIC_AUTH: 'ops:adopt-password' };
      const adopted = await runScript('apps/query/src/cli.js', ['cluster:adopt', '--from', old.url], env);
      expect(adopted.stderr).toBe('');
      expect(adopted.code).toBe(0);
      expect(adopted.stdout).toMatch(/^search_events: 202 rows \(copied\)$/m);
      expect(adopted.stdout).toMatch(/^search_terms_hourly: \d+ rows \(computed by its views\)$/m);

      const after = await startApp({ CLICKHOUSE_DATABASE: database, SERVICE_INSTANCES: INSTANCES.join(',') });
      apps.push(after);
      expect(await storedCounts(after)).toEqual(counts);
      expect(await answers(after.url)).toEqual(expected);

      const again = await runScript('apps/query/src/cli.js', ['cluster:adopt', '--from', old.url], env);
      expect([again.code, again.stderr]).toEqual([1, 'the cluster already holds search events: adopting again would count them twice\n']);
    } finally {
      await old.stop();
    }
  }, 180_000);
});
