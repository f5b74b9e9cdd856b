import { Module } from '@nestjs/common';
import { NotificationsModule } from '@app/notifications';
import { WebhooksModule } from '../webhooks';
import { AlertClock } from './alert-clock';
import { AlertConfigRepository } from './alert-config.repository';
import { AlertsRepository } from './alerts.repository';
import { AlertsService } from './alerts.service';

/** Alerts (docs/alerts.md): the configuration's storage, and the hourly evaluation of the rules in every query process. */
@Module({
  imports: [NotificationsModule, WebhooksModule],
  providers: [AlertClock, AlertConfigRepository, AlertsRepository, AlertsService],
  exports: [AlertConfigRepository],
})
export class AlertsModule {}
