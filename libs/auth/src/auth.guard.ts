import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { IncomingMessage } from 'http';
import { AuthError } from '@app/errors';
import { refused } from './auth-failures';
import { ANALYTICS_KEY, COLLECTOR_KEY, CREDENTIAL_ONLY_KEY, PERMISSION_KEY, PUBLIC_KEY } from './auth.decorators';
import { requestedInstance } from './addressed';
import { CredentialsGate } from './credentials-gate';
import type { Permission } from './permissions';

/**
 * The one global guard. The credentials were checked by the CredentialsGate before the body was read (and an HMAC
 * signature once its bytes were in, before it was parsed); the guard picks the instance and checks the route's
 * permission: 401 for an instance the credential may not use, 403 for a missing permission.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly gate: CredentialsGate,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_KEY, targets)) {
      return true;
    }
    const req = context.switchToHttp().getRequest<IncomingMessage>();
    const { customer, principal } = await this.gate.verify(req, req.rawBody ?? Buffer.alloc(0));
    // A collector key authenticates POST /1/events only, and nothing else authenticates there.
    const collectorRoute = this.reflector.getAllAndOverride<boolean>(COLLECTOR_KEY, targets) ?? false;
    if (collectorRoute !== (principal.scheme === 'collector')) {
      throw refused(collectorRoute ? 'collectorMissing' : 'noCredentials');
    }
    // An analytics key authenticates GET /2/... only; those routes read the instance their `index` names.
    const analyticsRoute = this.reflector.getAllAndOverride<boolean>(ANALYTICS_KEY, targets) ?? false;
    if (principal.scheme === 'analytics' && !analyticsRoute) {
      throw refused('algoliaKeyElsewhere');
    }
    const instances = customer.instances.filter((i) => !principal.instances || principal.instances.includes(i));
    // Without X-Service-Instance: the customer's default, or for a route that acts on no instance, the first the
    // credential may use (a JWT may exclude the default).
    // A collector key acts on the one instance it is bound to.
    const credentialOnly =
      collectorRoute || analyticsRoute || (this.reflector.getAllAndOverride<boolean>(CREDENTIAL_ONLY_KEY, targets) ?? false);
    const instance = requestedInstance(req, customer, principal) ?? (credentialOnly ? instances[0] : customer.instances[0]);
    if (instances.length === 0) {
      throw refused('noInstanceAllowed');
    }
    if (!instance || !instances.includes(instance)) {
      throw refused('defaultInstanceNotAllowed');
    }

    const needed = this.reflector.getAllAndOverride<Permission | undefined>(PERMISSION_KEY, targets);
    if (needed && !principal.permissions.has(needed)) {
      throw new AuthError('forbidden', `missing ${needed}`, `This credential lacks the permission ${needed}`);
    }
    req.auth = {
      customer: customer.customer,
      instance,
      instances,
      limited: principal.instances !== undefined,
      scheme: principal.scheme,
      permissions: principal.permissions,
      principal: principal.principal,
    };
    return true;
  }
}
