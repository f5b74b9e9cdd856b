export * from './clickhouse.service';
export * from './clickhouse.module';
export * from './migrator.service';
export * from './version-clock';
export * from './migrations';
export * from './data-dir-lock';
export { chDateTime, fromChDateTime } from '@app/contracts';
export * from './rounds';
export { MAX_LIST_PARAM_CHARS, inListParamGroups, listParamChars } from './sql-literals';
