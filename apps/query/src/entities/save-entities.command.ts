import { Command } from '@nestjs/cqrs';
import type { AuthContext } from '@app/auth';
import type { EntityType } from '@app/contracts';
import type { EntityItemDto } from './entity.dto';
import type { SaveEntitiesView } from './entity.view';

/** Creates or updates entities of one type (one item for PUT /entities/:type/:id). */
export class SaveEntitiesCommand extends Command<SaveEntitiesView> {
  constructor(
    readonly auth: AuthContext,
    readonly type: EntityType,
    readonly items: readonly EntityItemDto[],
    readonly autosave: boolean,
  ) {
    super();
  }
}
