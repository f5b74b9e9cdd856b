import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { ApiKeysRepository, keyInScope } from '@app/auth';
import { DomainError } from '@app/errors';
import { RevokeApiKeyCommand } from './revoke-api-key.command';

/**
 * Appends a revoked version; this process stops accepting the key at once, others within seconds. A key the credential
 * may not see (another customer's, or beyond a limited credential's instances) answers as an unknown id.
 */
@CommandHandler(RevokeApiKeyCommand)
export class RevokeApiKeyHandler implements ICommandHandler<RevokeApiKeyCommand> {
  constructor(private readonly keys: ApiKeysRepository) {}

  async execute({ auth, id }: RevokeApiKeyCommand): Promise<void> {
    const key = await this.keys.find(auth.customer, id);
    if (!key || key.revoked || !keyInScope(key, auth)) {
      throw new DomainError('not-found', `No active API key with id ${id}`);
    }
    await this.keys.save({ ...key, revoked: true });
  }
}
