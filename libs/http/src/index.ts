export * from './all-exceptions.filter';
export * from './create-http-app';
export * from './http.module';
export * from './body-parser';
export * from './openapi';
export * from './start-http-app';
export * from './security-headers';
export * from './insights-cors';
