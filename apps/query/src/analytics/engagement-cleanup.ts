import { ClickHouseCluster, ENGAGEMENT_LAYOUT, type ClickHouseService } from '@app/clickhouse';
import { spanHoursSql } from './engagement-spans';
import { HOUR } from './window';

/**
 * A version older than one recorded this long ago is deleted: a reader chose it before that one was recorded, at
 * most a request's time earlier.
 */
export const REPLACED_KEPT_MS = HOUR;
/** Rows of a version never recorded (its pass failed) are deleted once it began this long ago. */
export const FAILED_KEPT_MS = 24 * HOUR;

/** Tables a pass computes per hour under versions, and the table that records the versions complete. */
export interface VersionedTables {
  versions: string;
  computed: readonly string[];
  /** A condition on the records of this release's layout (other records count as never made). */
  layout?: string;
  /** The versions (customer, instance, hour, version) kept while something else reads them, however old. */
  kept?: (ch: Pick<ClickHouseService, 'table'>) => string;
}

/** The engagement figures' tables (EngagementRefresh), of this release's ENGAGEMENT_LAYOUT. */
export const ENGAGEMENT_TABLES: VersionedTables = {
  versions: 'engagement_versions',
  computed: ['engagement_hourly', 'engagement_phrases_hourly', 'engagement_objects_hourly'],
  layout: `layout = ${ENGAGEMENT_LAYOUT}`,
  // A span's hours are subtracted at the versions it summed (EngagementSpans).
  kept: spanHoursSql,
};

/** The cleanups' parameters as of `now` (ms): records before `replaced` (ms) settle, versions before `failed` (µs) failed. */
const cleanupParams = (now: number) => ({ replaced: now - REPLACED_KEPT_MS, failed: (now - FAILED_KEPT_MS) * 1000 });

/**
 * Deletes, as of `now` (ms), every version of an hour older than a version of it recorded REPLACED_KEPT_MS ago (no
 * reader reads it any more), with its record, and the rows of versions never recorded that began FAILED_KEPT_MS ago.
 * Only versions of this release's layout count as recorded: those of an earlier release are deleted as if their pass
 * had failed.
 */
export async function deleteReplacedVersions(cluster: ClickHouseCluster, now: number, tables = ENGAGEMENT_TABLES): Promise<void> {
  const ch = cluster.server;
  const versions = ch.table(tables.versions);
  const layout = tables.layout ?? '1';
  const stale = `SELECT customer, instance, hour, version FROM ${versions} AS v
    INNER JOIN (
      SELECT customer, instance, hour, max(version) AS settled FROM ${versions}
      WHERE recorded_at < fromUnixTimestamp64Milli({replaced:Int64}, 'UTC') AND ${layout}
      GROUP BY customer, instance, hour
    ) AS s USING (customer, instance, hour)
    WHERE v.version < s.settled ${tables.kept ? `AND (customer, instance, hour, version) NOT IN (${tables.kept(ch)})` : ''}`;
  const params = cleanupParams(now);
  const computed = tables.computed.map((t) => ch.table(t));
  for (const table of computed) {
    await cluster.mutate(`DELETE FROM ${table} WHERE (customer, instance, hour, version) IN (${stale})`, params);
  }
  await cluster.mutate(`DELETE FROM ${versions} WHERE (customer, instance, hour, version) IN (${stale})`, params);
  for (const table of computed) {
    await cluster.mutate(
      `DELETE FROM ${table}
       WHERE version < fromUnixTimestamp64Micro({failed:Int64}, 'UTC')
         AND (customer, instance, hour, version) NOT IN (
           SELECT customer, instance, hour, version FROM ${versions} WHERE ${layout})`,
      params,
    );
  }
}

/**
 * Deletes, as of `now` (ms), every span older than one recorded REPLACED_KEPT_MS ago (a reader chose it before that
 * one was recorded) or recorded FAILED_KEPT_MS ago (an instance's span is built each hour while it has searches in
 * its hours), its rows then its record, and the rows of spans never recorded that began FAILED_KEPT_MS ago.
 * Before deleteReplacedVersions: a deleted span no longer keeps its versions.
 */
export async function deleteReplacedSpans(cluster: ClickHouseCluster, now: number): Promise<void> {
  const params = cleanupParams(now);
  const ch = cluster.server;
  const spans = ch.table('engagement_spans');
  const rows = ch.table('engagement_phrase_spans');
  const stale = `SELECT customer, instance, span FROM ${spans} AS s
    INNER JOIN (
      SELECT customer, instance, max(span) AS settled FROM ${spans}
      WHERE recorded_at < fromUnixTimestamp64Milli({replaced:Int64}, 'UTC') AND layout = ${ENGAGEMENT_LAYOUT}
      GROUP BY customer, instance
    ) AS n USING (customer, instance)
    WHERE s.span < n.settled
    UNION ALL
    SELECT customer, instance, span FROM ${spans} WHERE recorded_at < fromUnixTimestamp64Micro({failed:Int64}, 'UTC')`;
  await cluster.mutate(`DELETE FROM ${rows} WHERE (customer, instance, span) IN (${stale})`, params);
  await cluster.mutate(`DELETE FROM ${spans} WHERE (customer, instance, span) IN (${stale})`, params);
  await cluster.mutate(
    `DELETE FROM ${rows} WHERE span < fromUnixTimestamp64Micro({failed:Int64}, 'UTC')
       AND (customer, instance, span) NOT IN (SELECT customer, instance, span FROM ${spans})`,
    params,
  );
}
