import { loadConfig } from '@app/config';
import { ClickHouseService, MIGRATIONS, MigratorService } from '@app/clickhouse';
import { personalHash } from '@app/contracts';
import { storedSearch } from './support/stored-search';
import { WORKER_DATA_DIR, uniqueDatabase } from './support/test-app';

/** A session id or user token as the service stores it. */
const hashed = (s: string) => personalHash('demo', s);

/**
 * Migration 0029 compresses the session and user-token hashes with ZSTD: only the codec changes, so rows stored
 * before it read back the same, a column's default stays, and a new part stores a hash in about half its 64
 * characters (LZ4, the default, cannot compress random hexadecimal digits).
 */
describe('migration 0029 (hash codecs)', () => {
  it('keeps the rows and defaults, and stores a 64-character hash in under 40 bytes', async () => {
    const database = uniqueDatabase('m29');
    const config = loadConfig({ DATA_DIR: WORKER_DATA_DIR, CLICKHOUSE_DATABASE: database, LOG_LEVEL: 'silent' });
    const ch = new ClickHouseService(config);
    try {
      await new MigratorService(ch, config).migrate(MIGRATIONS.filter((m) => m.id < '0029'));
      const before = Array.from({ length: 3 }, (_, n) => storedSearch(n, 1, { session_hash: hashed(`s${n}`), user_hash: hashed(`u${n}`) }));
      await ch.insert('search_events', before);

      await new MigratorService(ch, config).migrate(MIGRATIONS);

      const columns = await ch.query<{ table: string; name: string; compression_codec: string; default_expression: string }>(
        `SELECT table, name, compression_codec, default_expression FROM system.columns
         WHERE database = {database:String} AND table IN ('search_events', 'interactions') AND name LIKE '%hash' AND type = 'String'
         ORDER BY table, name`,
        { database },
      );
      expect(columns).toEqual([
        { table: 'interactions', name: 'session_hash', compression_codec: 'CODEC(ZSTD(1))', default_expression: '' },
        { table: 'interactions', name: 'user_token_hash', compression_codec: 'CODEC(ZSTD(1))', default_expression: '' },
        { table: 'search_events', name: 'session_hash', compression_codec: 'CODEC(ZSTD(1))', default_expression: '' },
        { table: 'search_events', name: 'user_hash', compression_codec: 'CODEC(ZSTD(1))', default_expression: "''" },
      ]);
      const read = await ch.query<{ session_hash: string; user_hash: string }>(
        `SELECT session_hash, user_hash FROM ${ch.table('search_events')} ORDER BY session_hash`,
      );
      expect(read).toEqual(
        before
          .map((r) => ({ session_hash: r.session_hash, user_hash: r.user_hash }))
          .sort((a, b) => (a.session_hash < b.session_hash ? -1 : 1)),
      );

      // 10,000 new searches with distinct hashes, in parts of their own (wide, so that each column's size is known; a
      // part this small is otherwise written compact, all columns in one file), compressed by ZSTD.
      await ch.command(`SYSTEM STOP MERGES ${ch.table('search_events')}`);
      await ch.command(`ALTER TABLE ${ch.table('search_events')} MODIFY SETTING min_bytes_for_wide_part = 0, min_rows_for_wide_part = 0`);
      const parts = `SELECT name FROM system.parts WHERE database = {database:String} AND table = 'search_events' AND active`;
      const earlier = (await ch.query<{ name: string }>(parts, { database })).map((p) => p.name);
      await ch.insert(
        'search_events',
        Array.from({ length: 10_000 }, (_, n) =>
          storedSearch(100 + n, 1, { session_hash: hashed(`session ${n}`), user_hash: hashed(`user ${n}`) }),
        ),
      );
      const [sizes] = await ch.query<{ rows: string; session: string; user: string }>(
        `SELECT toString(sum(rows) / 3) AS rows, toString(sumIf(column_data_compressed_bytes, column = 'session_hash')) AS session,
           toString(sumIf(column_data_compressed_bytes, column = 'user_hash')) AS user
         FROM system.parts_columns WHERE database = {database:String} AND table = 'search_events' AND active
           AND name NOT IN {earlier:Array(String)} AND column IN ('session_hash', 'user_hash', 'phrase')`,
        { database, earlier },
      );
      expect(sizes.rows).toBe('10000');
      // 32 bytes of entropy and a length byte each; LZ4 stores them at about 65.
      expect(Number(sizes.session)).toBeLessThan(40 * 10_000);
      expect(Number(sizes.user)).toBeLessThan(40 * 10_000);
    } finally {
      await ch.onApplicationShutdown();
    }
  });
});
