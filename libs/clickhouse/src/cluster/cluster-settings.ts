import type { ClickHouseSettings } from '@clickhouse/client';

/**
 * Every request's settings in cluster mode (docs/operations.md, "A cluster"):
 * - distributed_foreground_insert = 1: an insert through a Distributed table answers once every shard stored its
 *   rows (never from a queue that sends them later), with the insert's deduplication token, so a Kafka offset is
 *   committed only for stored rows and a retry through any host is dropped as on one server;
 * - distributed_product_mode = 'global': an IN or JOIN subquery over a Distributed table runs once, on the host that
 *   got the query, and its result goes to the shards (with plain engines a shared table's rows are on the designated
 *   host only, so a shard-local subquery would miss them; without it such a query fails with code 288);
 * - load_balancing = 'in_order': a shard's reads and writes go to its first healthy replica, so what a process just
 *   wrote (a claim, a ledger row, an engagement pass) is what it reads back; a replica that may be behind is used
 *   only while the first is down.
 */
export const CLUSTER_SETTINGS: ClickHouseSettings = {
  distributed_foreground_insert: 1,
  distributed_product_mode: 'global',
  load_balancing: 'in_order',
};
