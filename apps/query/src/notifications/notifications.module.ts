import { Module } from '@nestjs/common';
import { DeleteNotificationsHandler } from './delete-notifications.handler';
import { ListNotificationsHandler } from './list-notifications.handler';
import { NotificationsController } from './notifications.controller';

@Module({ controllers: [NotificationsController], providers: [DeleteNotificationsHandler, ListNotificationsHandler] })
export class NotificationsFeatureModule {}
