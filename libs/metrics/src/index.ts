export * from './metrics.module';
export * from './metrics.service';
