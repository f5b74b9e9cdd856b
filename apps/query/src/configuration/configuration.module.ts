import { Module } from '@nestjs/common';
import { AuthModule } from '@app/auth';
import { AlertsModule } from '../alerts';
import { AlgoliaAnalyticsModule } from '../algolia-analytics';
import { WebhooksModule } from '../webhooks';
import { ConfigurationController } from './configuration.controller';
import { GetConfigurationHandler } from './get-configuration.handler';
import { UpdateConfigurationHandler } from './update-configuration.handler';

/**
 * An instance's configuration (GET/PUT /configuration); its webhook URL is kept by the webhooks module, its alert
 * configuration by the alerts module, its Algolia index names by the module of Algolia's Analytics API.
 */
@Module({
  imports: [AuthModule, WebhooksModule, AlertsModule, AlgoliaAnalyticsModule],
  controllers: [ConfigurationController],
  providers: [UpdateConfigurationHandler, GetConfigurationHandler],
})
export class ConfigurationModule {}
