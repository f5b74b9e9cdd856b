export * from './http-metrics.middleware';
export * from './metrics.module';
export * from './metrics.service';
