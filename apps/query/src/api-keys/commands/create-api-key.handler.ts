import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { ApiKeysRepository, PRESETS, isPermission, randomSecret, type ApiKey, type AuthContext, type Permission } from '@app/auth';
import { DomainError } from '@app/errors';
import { toView, type CreatedApiKeyView } from '../api-key.view';
import { CreateApiKeyCommand } from './create-api-key.command';

@CommandHandler(CreateApiKeyCommand)
export class CreateApiKeyHandler implements ICommandHandler<CreateApiKeyCommand> {
  constructor(private readonly keys: ApiKeysRepository) {}

  async execute({ auth, body }: CreateApiKeyCommand): Promise<CreatedApiKeyView> {
    const requested = [...(body.permissions ?? []), ...(body.preset ? PRESETS[body.preset] : [])];
    const unknown = requested.filter((p) => !isPermission(p));
    if (unknown.length > 0) {
      throw new DomainError('invalid', `Unknown permission(s): ${unknown.join(', ')}`);
    }
    const permissions = requested as Permission[];
    if (permissions.length === 0) {
      throw new DomainError('invalid', 'permissions or preset must name at least one permission');
    }
    // A key never holds more than its creator: no escalation through key creation.
    const beyond = permissions.filter((p) => !auth.permissions.has(p));
    if (beyond.length > 0) {
      throw new DomainError('forbidden', `Cannot grant permission(s) the caller lacks: ${beyond.join(', ')}`);
    }
    const key: ApiKey = {
      id: randomUUID(),
      customer: auth.customer,
      description: body.description,
      permissions,
      ...keyInstances(auth, body.instances),
      secret: randomSecret(32),
      legacy: false,
      revoked: false,
      createdAt: Date.now(),
    };
    const saved = await this.keys.save(key);
    return { ...toView(saved), secret: saved.secret };
  }
}

/**
 * The instances of a new key: never beyond the caller's. Those asked for, each one the caller may act on (400 naming the
 * others); without any, the caller's when its credential is limited, else none named (every instance, also later ones).
 */
function keyInstances(auth: AuthContext, requested: string[] | undefined): Pick<ApiKey, 'instances'> {
  if (!requested) {
    return auth.limited ? { instances: [...auth.instances] } : {};
  }
  const beyond = [...new Set(requested.filter((i) => !auth.instances.includes(i)))];
  if (beyond.length > 0) {
    // A limited caller is not told which of them the customer has: it may not see the instances beyond its own.
    const what = auth.limited ? 'Instance(s) this credential may not act on' : 'Unknown instance(s)';
    throw new DomainError('invalid', `${what}: ${beyond.join(', ')}`);
  }
  return { instances: requested };
}
