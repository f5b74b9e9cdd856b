import { Query } from '@nestjs/cqrs';
import type { NotificationKind, NotificationView } from '@app/notifications';

export class ListNotificationsQuery extends Query<{ items: NotificationView[]; total: number }> {
  constructor(
    readonly customer: string,
    readonly instance: string,
    readonly start: number,
    readonly end: number,
    readonly kind?: NotificationKind,
  ) {
    super();
  }
}
