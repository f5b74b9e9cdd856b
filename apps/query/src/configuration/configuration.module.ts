import { Module } from '@nestjs/common';
import { MetricsModule } from '@app/metrics';
import { NotificationsModule } from '@app/notifications';
import { HostResolver } from '../webhooks/host-resolver';
import { WebhookDeliveryService } from '../webhooks/webhook-delivery.service';
import { ConfigurationController } from './configuration.controller';
import { GetConfigurationHandler } from './get-configuration.handler';
import { InstanceConfigRepository } from './instance-config.repository';
import { UpdateConfigurationHandler } from './update-configuration.handler';

/** Instance configuration and the webhook it configures (entities' changes are delivered through it). */
@Module({
  imports: [MetricsModule, NotificationsModule],
  controllers: [ConfigurationController],
  providers: [InstanceConfigRepository, UpdateConfigurationHandler, GetConfigurationHandler, WebhookDeliveryService, HostResolver],
  exports: [WebhookDeliveryService],
})
export class ConfigurationModule {}
