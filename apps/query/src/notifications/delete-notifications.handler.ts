import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { NotificationsRepository } from '@app/notifications';
import { DeleteNotificationsCommand } from './delete-notifications.command';

@CommandHandler(DeleteNotificationsCommand)
export class DeleteNotificationsHandler implements ICommandHandler<DeleteNotificationsCommand> {
  constructor(private readonly notifications: NotificationsRepository) {}

  async execute({ customer, instance, ids }: DeleteNotificationsCommand): Promise<void> {
    await this.notifications.delete(customer, instance, ids);
  }
}
