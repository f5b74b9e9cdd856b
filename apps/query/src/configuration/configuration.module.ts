import { Module } from '@nestjs/common';
import { AlertsModule } from '../alerts';
import { WebhooksModule } from '../webhooks';
import { ConfigurationController } from './configuration.controller';
import { GetConfigurationHandler } from './get-configuration.handler';
import { UpdateConfigurationHandler } from './update-configuration.handler';

/**
 * An instance's configuration (GET/PUT /configuration); its webhook URL is kept by the webhooks module, its alert
 * configuration by the alerts module.
 */
@Module({
  imports: [WebhooksModule, AlertsModule],
  controllers: [ConfigurationController],
  providers: [UpdateConfigurationHandler, GetConfigurationHandler],
})
export class ConfigurationModule {}
