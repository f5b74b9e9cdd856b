import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { NotificationsRepository, type NotificationView } from '@app/notifications';
import { ListNotificationsQuery } from './list-notifications.query';

@QueryHandler(ListNotificationsQuery)
export class ListNotificationsHandler implements IQueryHandler<ListNotificationsQuery> {
  constructor(private readonly notifications: NotificationsRepository) {}

  execute({ customer, instance, start, end, kind }: ListNotificationsQuery): Promise<{ items: NotificationView[]; total: number }> {
    return this.notifications.list(customer, instance, start, end, kind);
  }
}
