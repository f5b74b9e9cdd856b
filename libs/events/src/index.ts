export * from './data-versions';
export * from './event-intake';
export * from './events.module';
export * from './insert-batcher';
export * from './search-event-validator';
export * from './search-events.repository';
export * from './document-intake';
export * from './documents.repository';
