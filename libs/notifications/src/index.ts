export * from './notifications.module';
export * from './notifications.repository';
