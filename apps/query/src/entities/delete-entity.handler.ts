import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '@app/errors';
import { DeleteEntitiesCommand } from './delete-entities.command';
import { DeleteEntityCommand } from './delete-entity.command';

/** The bulk delete of one id; nothing deleted means the id is unknown. */
@CommandHandler(DeleteEntityCommand)
export class DeleteEntityHandler implements ICommandHandler<DeleteEntityCommand> {
  constructor(private readonly commands: CommandBus) {}

  async execute({ auth, type, id }: DeleteEntityCommand): Promise<void> {
    const deleted = await this.commands.execute(new DeleteEntitiesCommand(auth, type, [id]));
    if (deleted.length === 0) {
      throw new DomainError('not-found', `No ${type} with id ${id}`);
    }
  }
}
