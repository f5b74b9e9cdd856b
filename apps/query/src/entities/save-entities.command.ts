import { Command } from '@nestjs/cqrs';
import type { AuthContext } from '@app/auth';
import type { EntityType } from '@app/contracts';
import type { EntityItemDto } from './entity.dto';
import type { SaveEntitiesView } from './entity.view';
import type { Preconditions } from './preconditions';

/** What a save did, and the versions of the rows it appended (in request order): a saved entity's new ETag. */
export interface SavedEntities {
  view: SaveEntitiesView;
  versions: string[];
}

/**
 * Creates or updates entities of one type (one item for PUT /entities/:type/:id). `preconditions` (If-Match,
 * If-None-Match) apply to a single item only.
 */
export class SaveEntitiesCommand extends Command<SavedEntities> {
  constructor(
    readonly auth: AuthContext,
    readonly type: EntityType,
    readonly items: readonly EntityItemDto[],
    readonly autosave: boolean,
    readonly preconditions: Preconditions = {},
  ) {
    super();
  }
}
