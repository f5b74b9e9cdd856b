import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '@app/errors';
import { DataVersions } from '@app/intake';
import { WebhookDeliveryService } from '../webhooks';
import { EntitiesRepository } from './entities.repository';
import { SaveEntitiesCommand } from './save-entities.command';
import type { SaveEntitiesView } from './entity.view';

/**
 * Appends the change, tells this process's answer caches (the handled status of terms may change), then awaits
 * the webhook (delivery is synchronous: the save answers after it). An autosave stores a revision only: the state,
 * the handled phrases and the webhook are untouched.
 */
@CommandHandler(SaveEntitiesCommand)
export class SaveEntitiesHandler implements ICommandHandler<SaveEntitiesCommand> {
  constructor(
    private readonly entities: EntitiesRepository,
    private readonly webhooks: WebhookDeliveryService,
    private readonly versions: DataVersions,
  ) {}

  async execute({ auth, type, items, autosave }: SaveEntitiesCommand): Promise<SaveEntitiesView> {
    const seen = new Set<string>();
    for (const item of items) {
      if (seen.has(item.id)) {
        throw new DomainError('invalid', `items: id ${item.id} appears more than once`);
      }
      seen.add(item.id);
    }
    const existing = await this.entities.find(auth.customer, auth.instance, type, [...seen]);
    const at = await this.entities.append(
      auth.customer,
      auth.instance,
      type,
      items.map((i) => ({
        id: i.id,
        kind: autosave ? 'autosave' : 'save',
        deleted: false,
        searchPhrases: i.searchPhrases ?? [],
        language: i.language,
        data: i.data ?? {},
      })),
      `${auth.scheme}:${auth.principal}`,
    );
    this.versions.bump(auth.customer, auth.instance);
    const created = items.filter((i) => !existing.has(i.id)).map((i) => i.id);
    const updated = items.filter((i) => existing.has(i.id)).map((i) => i.id);
    if (!autosave) {
      const call = { customer: auth.customer, instance: auth.instance, type };
      await this.webhooks.deliver({ ...call, ids: created, action: 'create' });
      await this.webhooks.deliver({ ...call, ids: updated, action: 'update' });
    }
    const updatedAt = new Date(at).toISOString();
    return {
      created,
      updated,
      items: items.map((i) => ({
        type,
        id: i.id,
        searchPhrases: i.searchPhrases ?? [],
        language: i.language?.toLowerCase() ?? null,
        data: i.data ?? {},
        updatedAt,
      })),
    };
  }
}
