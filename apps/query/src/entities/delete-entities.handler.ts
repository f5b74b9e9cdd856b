import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataVersions } from '@app/intake';
import { removeAction } from '@app/contracts';
import { WebhookDeliveryService } from '../webhooks';
import { EntitiesRepository } from './entities.repository';
import { DeleteEntitiesCommand } from './delete-entities.command';

/** Appends deleted versions of the existing entities and awaits one webhook call listing them. */
@CommandHandler(DeleteEntitiesCommand)
export class DeleteEntitiesHandler implements ICommandHandler<DeleteEntitiesCommand> {
  constructor(
    private readonly entities: EntitiesRepository,
    private readonly webhooks: WebhookDeliveryService,
    private readonly versions: DataVersions,
  ) {}

  async execute({ auth, type, ids }: DeleteEntitiesCommand): Promise<string[]> {
    const existing = await this.entities.find(auth.customer, auth.instance, type, ids);
    const deleted = ids.filter((id) => existing.has(id));
    if (deleted.length === 0) {
      return [];
    }
    await this.entities.append(
      auth.customer,
      auth.instance,
      type,
      deleted.map((id) => ({ id, kind: 'save', deleted: true, searchPhrases: [], data: {} })),
      `${auth.scheme}:${auth.principal}`,
    );
    this.versions.bump(auth.customer, auth.instance);
    await this.webhooks.deliver({ customer: auth.customer, instance: auth.instance, type, ids: deleted, action: removeAction(type) });
    return deleted;
  }
}
