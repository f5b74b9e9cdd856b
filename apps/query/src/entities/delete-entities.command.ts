import { Command } from '@nestjs/cqrs';
import type { AuthContext } from '@app/auth';
import type { EntityType } from './entity-types';

/** Deletes entities; with `mustExist` (the single-entity route) an unknown id is a 404. */
export class DeleteEntitiesCommand extends Command<string[]> {
  constructor(
    readonly auth: AuthContext,
    readonly type: EntityType,
    readonly ids: readonly string[],
    readonly mustExist: boolean,
  ) {
    super();
  }
}
