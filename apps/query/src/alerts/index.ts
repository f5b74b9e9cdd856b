// What the alerts module shares with the configuration routes (.dependency-cruiser.js holds them to this file).
export { AlertConfigDto, AlertConfigView, withDefaults, type AlertConfig } from './alert-config';
export { AlertConfigRepository } from './alert-config.repository';
export { AlertsModule } from './alerts.module';
