export * from './table-classes';
export * from './cluster-ddl';
export * from './check-cluster';
