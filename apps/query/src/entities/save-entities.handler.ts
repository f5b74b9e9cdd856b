import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '@app/errors';
import { DataVersions } from '@app/intake';
import { WebhookDeliveryService } from '../webhooks';
import { ConditionalSaves } from './conditional-saves';
import { EntitiesRepository } from './entities.repository';
import { isConditional } from './preconditions';
import { SaveEntitiesCommand, type SavedEntities } from './save-entities.command';

/**
 * Appends the change, tells this process's answer caches (the handled status of terms may change), then awaits
 * the webhook (delivery is synchronous: the save answers after it). An autosave stores a revision only: the state,
 * the handled phrases and the webhook are untouched. A save of one item with If-Match / If-None-Match writes only when
 * they hold (ConditionalSaves).
 */
@CommandHandler(SaveEntitiesCommand)
export class SaveEntitiesHandler implements ICommandHandler<SaveEntitiesCommand> {
  constructor(
    private readonly entities: EntitiesRepository,
    private readonly webhooks: WebhookDeliveryService,
    private readonly versions: DataVersions,
    private readonly conditional: ConditionalSaves,
  ) {}

  execute(command: SaveEntitiesCommand): Promise<SavedEntities> {
    const { auth, type, items, autosave, preconditions } = command;
    if (!isConditional(preconditions)) {
      return this.save(command);
    }
    const key = { customer: auth.customer, instance: auth.instance, type, id: items[0].id };
    // An autosave changes no state: the preconditions are checked, nothing is claimed.
    return this.conditional.run(key, preconditions, !autosave, () => this.save(command));
  }

  private async save({ auth, type, items, autosave }: SaveEntitiesCommand): Promise<SavedEntities> {
    const seen = new Set<string>();
    for (const item of items) {
      if (seen.has(item.id)) {
        throw new DomainError('invalid', `items: id ${item.id} appears more than once`);
      }
      seen.add(item.id);
    }
    const existing = await this.entities.find(auth.customer, auth.instance, type, [...seen]);
    const { at, versions } = await this.entities.append(
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
    const view = {
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
    return { view, versions };
  }
}
