import { Command } from '@nestjs/cqrs';
import type { AuthContext } from '@app/auth';
import type { EntityType } from '@app/contracts';

/** Deletes the entities of these ids that exist (unknown ids are ignored); answers the ids deleted. */
export class DeleteEntitiesCommand extends Command<string[]> {
  constructor(
    readonly auth: AuthContext,
    readonly type: EntityType,
    readonly ids: readonly string[],
  ) {
    super();
  }
}
