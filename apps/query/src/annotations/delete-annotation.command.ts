import { Command } from '@nestjs/cqrs';
import type { AuthContext } from '@app/auth';

/** Deletes one annotation; an unknown id is a 404. */
export class DeleteAnnotationCommand extends Command<void> {
  constructor(
    readonly auth: AuthContext,
    readonly id: string,
  ) {
    super();
  }
}
