export * from './query.module';
export * from './bootstrap/print-first-start';
