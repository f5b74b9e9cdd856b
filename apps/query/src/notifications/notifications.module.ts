import { Module } from '@nestjs/common';
import { NotificationsModule } from '@app/notifications';
import { DeleteNotificationsHandler } from './delete-notifications.handler';
import { ListNotificationsHandler } from './list-notifications.handler';
import { NotificationsController } from './notifications.controller';

@Module({
  imports: [NotificationsModule],
  controllers: [NotificationsController],
  providers: [DeleteNotificationsHandler, ListNotificationsHandler],
})
export class NotificationsFeatureModule {}
