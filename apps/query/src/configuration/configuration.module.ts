import { Module } from '@nestjs/common';
import { WebhooksModule } from '../webhooks';
import { ConfigurationController } from './configuration.controller';
import { GetConfigurationHandler } from './get-configuration.handler';
import { UpdateConfigurationHandler } from './update-configuration.handler';

/** An instance's configuration (GET/PUT /configuration); its webhook URL is kept by the webhooks module. */
@Module({
  imports: [WebhooksModule],
  controllers: [ConfigurationController],
  providers: [UpdateConfigurationHandler, GetConfigurationHandler],
})
export class ConfigurationModule {}
