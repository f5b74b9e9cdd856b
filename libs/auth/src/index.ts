export * from './auth-context';
export * from './auth.decorators';
export * from './auth-headers';
export * from './auth-failures';

export * from './auth.module';
export * from './api-keys.repository';
export * from './customers.repository';
export * from './hmac';
export * from './permissions';
export * from './provisioning.service';
export * from './initial-credentials';
export { randomSecret } from './password';
export * from './credentials-gate';
export * from './addressed';
export * from './algolia-credentials';
export { clientAddress, clientKey } from './failed-auth.limiter';
export { CREDENTIALS_MAX_AGE_MS, CREDENTIALS_REFRESH_MS, RefreshingCache } from './refreshing-cache';
export { CollectedRows, MAX_ROWS_PER_EVENT } from './collected-rows';
