/**
 * What each table is in cluster mode (docs/operations.md, "A cluster"):
 * - `tenant`: a customer's data, sharded by cityHash64(customer, instance) as `<name>_local` on every shard, behind
 *   a Distributed table of the same name. A key's versions stay on one shard, so FINAL and the co-sharded
 *   subqueries read one shard's rows.
 * - `shared`: whole, seen at once by every app: with Replicated engines one replica on every host (one path for all
 *   shards); with plain engines on the designated host (the cluster's first), behind a Distributed table whose
 *   sharding key sends every row there.
 * - `ledger`: the Kafka ledger, filled by views on tenant tables, so `_local` beside their rows on every shard, and
 *   read whole through its Distributed table.
 * test/cluster-ddl.spec.ts fails for a table the migrations create without a class here.
 */
export type TableClass = 'tenant' | 'shared' | 'ledger';

export const TABLE_CLASSES: Readonly<Record<string, TableClass>> = {
  // search events and what is computed from them
  search_events: 'tenant',
  rejected_events: 'tenant',
  search_terms_hourly: 'tenant',
  search_terms_daily: 'tenant',
  search_totals_hourly: 'tenant',
  search_term_spellings_hourly: 'tenant',
  search_phrases_hourly: 'tenant',
  search_phrases_daily: 'tenant',
  search_phrases_weekly: 'tenant',
  search_dimensions_hourly: 'tenant',
  search_phrase_dimensions_hourly: 'tenant',
  search_dimensions_untagged_hourly: 'tenant',
  search_phrase_tags_hourly: 'tenant',
  search_dimension_versions: 'tenant',
  search_ids: 'tenant',
  intake_requests: 'tenant',
  // clicks, conversions and the engagement figures
  interactions: 'tenant',
  engagement_changes: 'tenant',
  engagement_hourly: 'tenant',
  engagement_objects_hourly: 'tenant',
  engagement_phrases_hourly: 'tenant',
  engagement_phrase_spans: 'tenant',
  engagement_spans: 'tenant',
  engagement_versions: 'tenant',
  // the catalogue
  documents: 'tenant',
  // keys, customers, configuration, alerts, claims, nonces, erasures, the schema
  api_keys: 'shared',
  customers: 'shared',
  instance_config: 'shared',
  entities: 'shared',
  notifications: 'shared',
  alert_config: 'shared',
  algolia_indexes: 'shared',
  alert_log: 'shared',
  annotations: 'shared',
  intake_claims: 'shared',
  used_nonces: 'shared',
  erased_user_tokens: 'shared',
  engagement_passes: 'shared',
  schema_migrations: 'shared',
  // the Kafka ledger
  ingest_offsets: 'ledger',
  ingest_blocks: 'ledger',
  document_offsets: 'ledger',
};

/** A table's class; throws for a table without one (a new table must be given its class here). */
export function tableClass(name: string): TableClass {
  const found = TABLE_CLASSES[name];
  if (found === undefined) {
    throw new Error(`table ${name} has no class for cluster mode: add it to TABLE_CLASSES (libs/clickhouse/src/cluster/table-classes.ts)`);
  }
  return found;
}

/** Materialised views are named `<something>_mv`; they have no class (they live on every host, beside their tables). */
export function isView(name: string): boolean {
  return name.endsWith('_mv');
}
