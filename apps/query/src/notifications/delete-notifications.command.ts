import { Command } from '@nestjs/cqrs';

export class DeleteNotificationsCommand extends Command<void> {
  constructor(
    readonly customer: string,
    readonly instance: string,
    readonly ids: readonly string[],
  ) {
    super();
  }
}
