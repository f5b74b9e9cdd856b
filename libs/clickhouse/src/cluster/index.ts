export * from './table-classes';
export * from './cluster-ddl';
export * from './check-cluster';
export * from './clickhouse-cluster.service';
export * from './cluster-settings';
