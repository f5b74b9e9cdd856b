import { ConfigurationError } from '@app/config';
import type { ClickHouseService } from '../clickhouse.service';

/**
 * With CLICKHOUSE_CLUSTER set, that the server knows the cluster (its `remote_servers`, read from system.clusters);
 * otherwise a ConfigurationError whose one line names the variable and the clusters the server has.
 */
export async function checkCluster(ch: ClickHouseService, cluster: string | undefined): Promise<void> {
  if (cluster === undefined) {
    return;
  }
  const known = (await ch.query<{ cluster: string }>('SELECT DISTINCT cluster FROM system.clusters ORDER BY cluster')).map(
    (r) => r.cluster,
  );
  if (!known.includes(cluster)) {
    throw new ConfigurationError(
      `CLICKHOUSE_CLUSTER=${cluster}: the server at CLICKHOUSE_URL has no such cluster; ` +
        `it has ${known.length ? known.join(', ') : 'none (no remote_servers in its configuration)'}`,
    );
  }
}
