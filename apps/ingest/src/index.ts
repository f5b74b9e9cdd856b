export * from './ingest.module';
export * from './search-events.consumer';
