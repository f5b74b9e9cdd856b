import { CanActivate, ExecutionContext, HttpException, HttpStatus, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { IncomingMessage } from 'http';
import { AppConfig } from '@app/config';
import { NAME_PATTERN } from '@app/contracts';
import { AuthError } from '@app/errors';
import { CREDENTIAL_ONLY_KEY, PERMISSION_KEY, PUBLIC_KEY } from './auth.decorators';
import { BasicAuthenticator, HmacAuthenticator, JwtAuthenticator, type Principal } from './authenticators';
import { CustomersRepository, type Customer } from './customers.repository';
import { clientAddress, FailedAuthLimiter } from './failed-auth.limiter';
import type { Permission } from './permissions';

/** The customer a request addresses: SERVICE_CUSTOMER, or with BASE_DOMAIN the Host's label left of it. */
export function customerOf(req: IncomingMessage, config: AppConfig): string | undefined {
  if (!config.baseDomain) return config.customer;
  const host = (req.headers.host ?? '').toLowerCase().replace(/:\d+$/, '');
  const suffix = `.${config.baseDomain}`;
  const label = host.endsWith(suffix) ? host.slice(0, -suffix.length) : '';
  return NAME_PATTERN.test(label) ? label : undefined;
}

/**
 * The one global guard: resolves the customer (tenancy), authenticates with HMAC, Basic or JWT, selects the
 * instance, and checks the route's permission. 401 for anything about identity, 403 for a missing permission.
 * An address with too many failed authentications gets 429 before any of that work (FailedAuthLimiter).
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly config: AppConfig,
    private readonly customers: CustomersRepository,
    private readonly hmac: HmacAuthenticator,
    private readonly basic: BasicAuthenticator,
    private readonly jwt: JwtAuthenticator,
    private readonly failures: FailedAuthLimiter,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_KEY, targets)) return true;
    const req = context.switchToHttp().getRequest<IncomingMessage>();
    const address = clientAddress(req);
    const wait = this.failures.retryAfter(address);
    if (wait > 0) {
      context.switchToHttp().getResponse<{ header(name: string, value: string): unknown }>().header('Retry-After', String(wait));
      const message = `Too many failed authentications from this address; retry in ${wait} s`;
      throw new HttpException({ statusCode: 429, error: 'Too Many Requests', message }, HttpStatus.TOO_MANY_REQUESTS);
    }

    let identity: { customer: Customer; principal: Principal; instance: string; instances: string[] };
    try {
      identity = await this.identify(req, this.reflector.getAllAndOverride<boolean>(CREDENTIAL_ONLY_KEY, targets) ?? false);
    } catch (err) {
      if (err instanceof AuthError) this.failures.recordFailure(address);
      throw err;
    }
    const { customer, principal, instance, instances } = identity;

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

  private async identify(
    req: IncomingMessage,
    credentialOnly: boolean,
  ): Promise<{ customer: Customer; principal: Principal; instance: string; instances: string[] }> {
    const customer = await this.customers.find(this.customerName(req));
    if (!customer) throw new AuthError('unauthenticated', 'unknown customer');
    const principal = await this.authenticate(req, customer);
    const instances = customer.instances.filter((i) => !principal.instances || principal.instances.includes(i));
    return { customer, principal, instance: this.instance(req, customer, principal, credentialOnly ? instances[0] : undefined), instances };
  }

  private customerName(req: IncomingMessage): string {
    const name = customerOf(req, this.config);
    if (!name) throw new AuthError('unauthenticated', 'host names no customer');
    return name;
  }

  private authenticate(req: IncomingMessage, customer: Customer): Promise<Principal> | Principal {
    const authorization = req.headers.authorization;
    if (authorization) {
      const [scheme, value] = authorization.split(' ', 2);
      if (scheme?.toLowerCase() === 'basic' && value) return this.basic.authenticate(value, customer);
      if (scheme?.toLowerCase() === 'bearer' && value) return this.jwt.authenticate(value, customer);
      throw new AuthError('unauthenticated', 'unsupported authorization scheme');
    }
    return this.hmac.authenticate(req, customer);
  }

  /** X-Service-Instance, else `fallback` when given, else the customer's default; 401 when not allowed. */
  private instance(req: IncomingMessage, customer: Customer, principal: Principal, fallback?: string): string {
    const sent = req.headers['x-service-instance'];
    const instance = (Array.isArray(sent) ? sent[0] : sent) ?? fallback ?? customer.instances[0];
    if (!instance || !customer.instances.includes(instance)) throw new AuthError('unauthenticated', 'unknown instance');
    if (principal.instances && !principal.instances.includes(instance)) throw new AuthError('unauthenticated', 'instance not allowed');
    return instance;
  }
}
