export * from './kafka.module';
export * from './kafka.service';
