import { Global, Module } from '@nestjs/common';
import { NotificationsRepository } from './notifications.repository';

@Global()
@Module({ providers: [NotificationsRepository], exports: [NotificationsRepository] })
export class NotificationsModule {}
