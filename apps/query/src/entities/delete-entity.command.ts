import { Command } from '@nestjs/cqrs';
import type { AuthContext } from '@app/auth';
import type { EntityType } from '@app/contracts';

/** Deletes one entity; an unknown id is a 404. */
export class DeleteEntityCommand extends Command<void> {
  constructor(
    readonly auth: AuthContext,
    readonly type: EntityType,
    readonly id: string,
  ) {
    super();
  }
}
