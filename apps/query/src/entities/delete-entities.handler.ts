import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '@app/errors';
import { WebhookDeliveryService } from '../webhooks/webhook-delivery.service';
import { EntitiesRepository } from './entities.repository';
import { removeAction } from './entity-types';
import { DeleteEntitiesCommand } from './delete-entities.command';

/** Appends deleted versions of the existing entities and awaits one webhook call listing them. */
@CommandHandler(DeleteEntitiesCommand)
export class DeleteEntitiesHandler implements ICommandHandler<DeleteEntitiesCommand> {
  constructor(
    private readonly entities: EntitiesRepository,
    private readonly webhooks: WebhookDeliveryService,
  ) {}

  async execute({ auth, type, ids, mustExist }: DeleteEntitiesCommand): Promise<string[]> {
    const existing = await this.entities.find(auth.customer, auth.instance, type, ids);
    if (mustExist && existing.size === 0) throw new DomainError('not-found', `No ${type} with id ${ids[0]}`);
    const deleted = ids.filter((id) => existing.has(id));
    if (deleted.length === 0) return [];
    await this.entities.append(
      auth.customer,
      auth.instance,
      type,
      deleted.map((id) => ({ id, kind: 'save', deleted: true, searchPhrases: [], data: {} })),
      `${auth.scheme}:${auth.principal}`,
    );
    await this.webhooks.deliver({ customer: auth.customer, instance: auth.instance, type, ids: deleted, action: removeAction(type) });
    return deleted;
  }
}
