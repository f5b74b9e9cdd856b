import { Command } from '@nestjs/cqrs';
import type { AuthContext } from '@app/auth';

export class RevokeApiKeyCommand extends Command<void> {
  constructor(
    readonly auth: AuthContext,
    readonly id: string,
  ) {
    super();
  }
}
