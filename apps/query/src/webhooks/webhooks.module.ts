import { Module } from '@nestjs/common';
import { MetricsModule } from '@app/metrics';
import { NotificationsModule } from '@app/notifications';
import { HostResolver } from './host-resolver';
import { WebhookDeliveryService } from './webhook-delivery.service';
import { WebhookUrlRepository } from './webhook-url.repository';

/**
 * The webhook: its URL, the address policy and the delivery. Configuration (GET/PUT /configuration) and entities
 * (a change delivered) import this module; it imports no feature.
 */
@Module({
  imports: [MetricsModule, NotificationsModule],
  providers: [WebhookDeliveryService, WebhookUrlRepository, HostResolver],
  exports: [WebhookDeliveryService, WebhookUrlRepository],
})
export class WebhooksModule {}
