import type { ClickHouseService } from './clickhouse.service';

/**
 * When migration `id` was applied (ms), if `search_events` holds rows received before it that `condition` keeps (in
 * the day before it, with `lastDay`): the rows an earlier release wrote, which the code reads apart for a while after
 * an upgrade (docs/upgrading.md). Undefined when there are none (a database that began with this release).
 */
export async function rowsBeforeMigration(
  ch: ClickHouseService,
  id: string,
  condition = '1',
  lastDay = false,
): Promise<number | undefined> {
  const [row] = await ch.query<{ before: string; rows: string }>(
    `WITH (SELECT min(applied_at) FROM ${ch.table('schema_migrations')} WHERE id = {id:String}) AS applied
     SELECT toString(toUnixTimestamp64Milli(applied)) AS before, toString(count()) AS rows FROM ${ch.table('search_events')}
     WHERE received_at < applied ${lastDay ? 'AND received_at > applied - INTERVAL 1 DAY' : ''} AND ${condition}`,
    { id },
  );
  return row && Number(row.rows) > 0 ? Number(row.before) : undefined;
}

/**
 * `read()` once, its answer kept; a failed read is not kept, so the next call reads again (a storage error at the
 * first call would otherwise stay for the process's life).
 */
export function readOnce<T>(read: () => Promise<T>): () => Promise<T> {
  let kept: Promise<T> | undefined;
  return () => {
    kept ??= read().catch((err: unknown) => {
      kept = undefined;
      throw err;
    });
    return kept;
  };
}
