export * from './app-error';
export * from './auth.error';
export * from './domain-error';
export * from './retry-later.error';
export * from './storage-unavailable.error';
export * from './error-responses';
export * from './storage-limit.error';
