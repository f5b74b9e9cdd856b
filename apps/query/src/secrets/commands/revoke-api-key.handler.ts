import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { ApiKeysRepository } from '@app/auth';
import { DomainError } from '@app/errors';
import { RevokeApiKeyCommand } from './revoke-api-key.command';

/** Appends a revoked version; this process stops accepting the key at once, others within seconds. */
@CommandHandler(RevokeApiKeyCommand)
export class RevokeApiKeyHandler implements ICommandHandler<RevokeApiKeyCommand> {
  constructor(private readonly keys: ApiKeysRepository) {}

  async execute({ customer, id }: RevokeApiKeyCommand): Promise<void> {
    const key = await this.keys.find(customer, id);
    if (!key || key.revoked) throw new DomainError('not-found', `No active API key with id ${id}`);
    await this.keys.save({ ...key, revoked: true });
  }
}
