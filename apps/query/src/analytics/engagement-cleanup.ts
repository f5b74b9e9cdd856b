import { ClickHouseCluster, ENGAGEMENT_LAYOUT } from '@app/clickhouse';
import { HOUR } from './window';

/**
 * A version older than one recorded this long ago is deleted: a reader chose it before that one was recorded, at
 * most a request's time earlier.
 */
export const REPLACED_KEPT_MS = HOUR;
/** Rows of a version never recorded (its pass failed) are deleted once it began this long ago. */
export const FAILED_KEPT_MS = 24 * HOUR;

/**
 * Deletes, as of `now` (ms), every version of an hour older than a version of it recorded REPLACED_KEPT_MS ago (no
 * reader reads it any more), with its record, and the rows of versions never recorded that began FAILED_KEPT_MS ago.
 * Only versions of this release's ENGAGEMENT_LAYOUT count as recorded: those of an earlier release are deleted
 * as if their pass had failed.
 */
export async function deleteReplacedVersions(cluster: ClickHouseCluster, now: number): Promise<void> {
  const ch = cluster.server;
  const versions = ch.table('engagement_versions');
  const stale = `SELECT customer, instance, hour, version FROM ${versions} AS v
    INNER JOIN (
      SELECT customer, instance, hour, max(version) AS settled FROM ${versions}
      WHERE recorded_at < fromUnixTimestamp64Milli({replaced:Int64}, 'UTC') AND layout = {layout:UInt8}
      GROUP BY customer, instance, hour
    ) AS s USING (customer, instance, hour)
    WHERE v.version < s.settled`;
  const params = { replaced: now - REPLACED_KEPT_MS, failed: (now - FAILED_KEPT_MS) * 1000, layout: ENGAGEMENT_LAYOUT };
  const computed = ['engagement_hourly', 'engagement_phrases_hourly', 'engagement_objects_hourly'].map((t) => ch.table(t));
  for (const table of computed) {
    await cluster.mutate(`DELETE FROM ${table} WHERE (customer, instance, hour, version) IN (${stale})`, params);
  }
  await cluster.mutate(`DELETE FROM ${versions} WHERE (customer, instance, hour, version) IN (${stale})`, params);
  for (const table of computed) {
    await cluster.mutate(
      `DELETE FROM ${table}
       WHERE version < fromUnixTimestamp64Micro({failed:Int64}, 'UTC')
         AND (customer, instance, hour, version) NOT IN (
           SELECT customer, instance, hour, version FROM ${versions} WHERE layout = {layout:UInt8})`,
      params,
    );
  }
}
