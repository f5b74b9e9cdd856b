import { Command } from '@nestjs/cqrs';
import type { AuthContext } from '@app/auth';
import type { CreateApiKeyDto } from '../create-api-key.dto';
import type { CreatedApiKeyView } from '../api-key.view';

export class CreateApiKeyCommand extends Command<CreatedApiKeyView> {
  constructor(
    readonly auth: AuthContext,
    readonly body: CreateApiKeyDto,
  ) {
    super();
  }
}
