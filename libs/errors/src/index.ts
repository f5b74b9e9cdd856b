export * from './app-error';
export * from './auth.error';
export * from './domain-error';
export * from './storage-unavailable.error';
export * from './too-many-requests.error';
export * from './error-responses';
