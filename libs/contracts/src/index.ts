export * from './bot-detector';
export * from './normalise-phrase';
export * from './rejected-event';
export * from './search-event';
export * from './ch-time';
export * from './catalogue-document';
export * from './item-tenant';
export * from './text';
