export * from './all-exceptions.filter';
export * from './create-http-app';
export * from './http.module';
export * from './json-body.middleware';
export * from './domain-error';
export * from './openapi';
