export * from './app-config';
export * from './config.module';
export { CONFIG_VARIABLES, type ConfigVariable, type SettingPath, type ValueKind } from './variables';
