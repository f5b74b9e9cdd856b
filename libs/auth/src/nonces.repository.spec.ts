import { ClickHouseService, MAX_LIST_PARAM_CHARS, MIGRATIONS, MigratorService } from '@app/clickhouse';
import { loadConfig } from '@app/config';
import { WORKER_DATA_DIR, uniqueDatabase } from '../../../test/support/test-app';
import { NoncesRepository } from './nonces.repository';

describe('NoncesRepository on the embedded engine', () => {
  const config = loadConfig({ DATA_DIR: WORKER_DATA_DIR, CLICKHOUSE_DATABASE: uniqueDatabase('nonces') });
  const ch = new ClickHouseService(config);
  const repositories: NoncesRepository[] = [];
  const repository = () => {
    const r = new NoncesRepository(ch);
    repositories.push(r);
    return r;
  };

  beforeAll(() => new MigratorService(ch, config).migrate(MIGRATIONS));
  afterAll(async () => {
    await Promise.all(repositories.map((r) => r.beforeApplicationShutdown()));
    await ch.onApplicationShutdown();
  });

  it('accepts a nonce once in a process, also when the same nonce arrives at the same moment', async () => {
    const nonces = repository();
    const results = await Promise.all([nonces.use('shop', 'n-1'), nonces.use('shop', 'n-1'), nonces.use('other', 'n-1')]);
    expect(results).toEqual([true, false, true]);
    expect(await nonces.use('shop', 'n-1')).toBe(false);
    expect(nonces.seen('shop', 'n-1')).toBe(true);
  });

  it('refuses in another process a nonce used here once the batch interval (at most 1 s) has passed', async () => {
    const here = repository();
    expect(await here.use('shop', 'n-2')).toBe(true);
    await new Promise((r) => setTimeout(r, NoncesRepository.WRITE_INTERVAL_MS + 200));
    const there = repository();
    expect(await there.use('shop', 'n-2')).toBe(false);
    expect(await there.use('shop', 'n-3')).toBe(true);
  });

  it('looks up at most MAX_LIST_PARAM_CHARS of nonces (in the URL) in one query (a server takes them in the URL)', async () => {
    const nonces = repository();
    const query = jest.spyOn(ch, 'query');
    // Short nonces (8 characters, the least allowed) cost the most URL per character: quotes and commas, encoded.
    const all = Array.from({ length: 1000 }, (_, i) => nonces.use('shop', `n${String(i).padStart(7, '0')}`));
    expect((await Promise.all(all)).every(Boolean)).toBe(true);
    const lookups = query.mock.calls.filter(([sql]) => sql.includes('used_nonces')).map(([, params]) => params!.nonces as string[]);
    query.mockRestore();
    expect(lookups.flat()).toHaveLength(1000);
    const inUrl = (list: string[]) => encodeURIComponent(`[${list.map((n) => `'${n}'`).join(',')}]`).length;
    expect(Math.max(...lookups.map(inUrl))).toBeLessThanOrEqual(MAX_LIST_PARAM_CHARS);
  });

  it('answers a failed lookup as storage unavailable (503, Retry-After), and the nonce may be used again', async () => {
    const nonces = repository();
    const query = jest.spyOn(ch, 'query').mockRejectedValueOnce(new Error(''));
    const failed = await nonces.use('shop', 'n-failed').catch((err: unknown) => err);
    query.mockRestore();
    expect(failed).toMatchObject({ code: 'unavailable', retryAfterSeconds: 1 });
    expect(nonces.seen('shop', 'n-failed')).toBe(false);
    expect(await nonces.use('shop', 'n-failed')).toBe(true);
  });

  it('writes the nonces of many requests in a few inserts, and reads them in a few queries', async () => {
    const nonces = repository();
    const insert = jest.spyOn(ch, 'insert');
    const query = jest.spyOn(ch, 'query');
    const started = Date.now();
    const all: Array<Promise<boolean>> = [];
    for (let i = 0; i < 500; i++) {
      all.push(nonces.use('shop', `many-${i}`));
      if (i % 50 === 49) {
        await new Promise((r) => setTimeout(r, 20));
      }
    }
    expect((await Promise.all(all)).every(Boolean)).toBe(true);
    await nonces.flush();
    const seconds = (Date.now() - started) / 1000;
    // Only the inserts of this test's nonces: another test's repository may write its own meanwhile (its timer).
    const ours = (rows: readonly object[]) => rows.some((r) => (r as { nonce?: string }).nonce?.startsWith('many-'));
    const inserts = insert.mock.calls.filter(([table, rows]) => table === 'used_nonces' && ours(rows)).length;
    const reads = query.mock.calls.filter(([sql]) => sql.includes('used_nonces')).length;
    insert.mockRestore();
    query.mockRestore();
    expect(inserts).toBeGreaterThanOrEqual(1);
    expect(inserts).toBeLessThanOrEqual(Math.ceil(seconds / (NoncesRepository.WRITE_INTERVAL_MS / 1000)) + 1);
    expect(reads).toBeLessThanOrEqual(Math.ceil((seconds * 1000) / NoncesRepository.READ_INTERVAL_MS) + 1);
    // Every one of them is now in the shared table.
    const stored = await ch.query<{ n: string }>(
      `SELECT count() AS n FROM ${ch.table('used_nonces')} WHERE customer = 'shop' AND startsWith(nonce, 'many-')`,
    );
    expect(Number(stored[0].n)).toBe(500);
  });

  it('refuses a nonce another process wrote to the shared table', async () => {
    await ch.insert('used_nonces', [{ customer: 'shop', nonce: 'n-4', used_at: Math.floor(Date.now() / 1000) }]);
    expect(await repository().use('shop', 'n-4')).toBe(false);
  });
});
