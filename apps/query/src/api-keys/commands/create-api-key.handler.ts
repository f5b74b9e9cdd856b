import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import {
  ANALYTICS_PERMISSION,
  ApiKeysRepository,
  COLLECTOR_PERMISSION,
  PRESETS,
  isPermission,
  randomSecret,
  type ApiKey,
  type AuthContext,
  type Permission,
} from '@app/auth';
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
    const collector = collectorScope(auth, body);
    checkAnalyticsKey(body);
    const key: ApiKey = {
      id: randomUUID(),
      customer: auth.customer,
      description: body.description,
      permissions,
      ...(collector ?? keyInstances(auth, body.instances)),
      ...(body.preset ? { preset: body.preset } : {}),
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
 * A collector key (`preset: "collector"`) holds events:collect and nothing else, for the request's instance only, with
 * its origins (each `scheme://host[:port]`); undefined for any other key, which may neither hold events:collect nor
 * name origins. 400 naming the rule.
 */
function collectorScope(auth: AuthContext, body: CreateApiKeyCommand['body']): Pick<ApiKey, 'instances' | 'origins'> | undefined {
  if (body.preset !== 'collector') {
    if (body.permissions?.includes(COLLECTOR_PERMISSION)) {
      throw new DomainError('invalid', `${COLLECTOR_PERMISSION} is granted only by the preset collector`);
    }
    if (body.origins !== undefined) {
      throw new DomainError('invalid', 'origins is only for the preset collector');
    }
    return undefined;
  }
  if ((body.permissions ?? []).some((p) => p !== COLLECTOR_PERMISSION)) {
    throw new DomainError('invalid', `A collector key holds ${COLLECTOR_PERMISSION} only: no other permissions with the preset collector`);
  }
  if (body.instances !== undefined) {
    throw new DomainError('invalid', "A collector key is bound to the request's instance (X-Service-Instance): no instances");
  }
  const origins = body.origins ?? [];
  const wrong = origins.filter((o) => !isOrigin(o));
  if (wrong.length > 0) {
    throw new DomainError('invalid', `Not an origin (scheme://host[:port], no path): ${wrong.join(', ')}`);
  }
  return { instances: [auth.instance], origins: [...new Set(origins)].sort() };
}

/**
 * An analytics key (`preset: "analytics"`) holds analytics:read and nothing else: its secret travels as it is, so it
 * must not carry a permission that writes or that signed requests use. 400 naming the rule.
 */
function checkAnalyticsKey(body: CreateApiKeyCommand['body']): void {
  if (body.preset === 'analytics' && (body.permissions ?? []).some((p) => p !== ANALYTICS_PERMISSION)) {
    throw new DomainError('invalid', `An analytics key holds ${ANALYTICS_PERMISSION} only: no other permissions with the preset analytics`);
  }
}

function isOrigin(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === text;
  } catch {
    return false;
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
