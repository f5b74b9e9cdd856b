export * from './ingest.module';
export * from './ingest.consumer';
export * from './exactly-once-batches';
