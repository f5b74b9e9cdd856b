export * from './ingest.module';
export * from './ingest.consumer';
