export * from './core.module';
