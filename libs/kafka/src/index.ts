export * from './kafka-log-policy';
export * from './kafka.module';
export * from './kafka.service';
export * from './rebalance';
export * from './consumer-readiness';
