import { applyDecorators, createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { ApiBasicAuth, ApiBearerAuth, ApiHeader, ApiSecurity } from '@nestjs/swagger';
import { ApiErrors } from '@app/errors';
import type { IncomingMessage } from 'http';
import type { AuthContext } from './auth-context';
import { AUTH_HEADERS } from './auth-headers';
import { ANALYTICS_PERMISSION, COLLECTOR_PERMISSION, type Permission } from './permissions';

export const PERMISSION_KEY = 'auth:permission';
export const CREDENTIAL_ONLY_KEY = 'auth:credential-only';
export const PUBLIC_KEY = 'auth:public';
export const INTAKE_LIMIT_KEY = 'auth:intake-limit';
export const COLLECTOR_KEY = 'auth:collector';
export const ANALYTICS_KEY = 'auth:analytics';

/** Documents a route's authentication in the OpenAPI document: the three schemes, the HMAC and instance headers. */
const ApiAuthentication = () =>
  applyDecorators(ApiSecurity('hmac'), ApiBasicAuth('basic'), ApiBearerAuth('jwt'), ...AUTH_HEADERS.map((h) => ApiHeader(h)));

/**
 * The permission a route needs, checked by the global AuthGuard; also documents the route's authentication in the
 * OpenAPI document, with the error answers every protected route can give: 401, 403, 429 and 503.
 */
export const RequirePermission = (permission: Permission) =>
  applyDecorators(
    SetMetadata(PERMISSION_KEY, permission),
    ApiAuthentication(),
    ApiErrors(401, [403, `The credential lacks ${permission} (JWT: ${permission.replace(':', '.')})`], 429, 503),
  );

/**
 * A route open to any valid credential, without a permission and without acting on an instance: without
 * X-Service-Instance it takes the first instance the credential may use (a JWT may exclude the default).
 */
export const RequireCredential = () =>
  applyDecorators(SetMetadata(CREDENTIAL_ONLY_KEY, true), ApiAuthentication(), ApiErrors(401, 429, 503));

/**
 * A route of a shop's event stream: its requests count against INTAKE_PER_MINUTE, a budget of its own, instead of
 * RATE_LIMIT_PER_MINUTE (CustomerThrottlerGuard).
 */
export const IntakeRateLimit = () => SetMetadata(INTAKE_LIMIT_KEY, true);

/**
 * POST /1/events: authenticated by a collector key (and nothing else: CredentialsGate.admitCollector), with
 * events:collect; its requests count per client address against COLLECT_PER_MINUTE (CustomerThrottlerGuard).
 */
export const RequireCollectorKey = () =>
  applyDecorators(SetMetadata(COLLECTOR_KEY, true), SetMetadata(PERMISSION_KEY, COLLECTOR_PERMISSION));

/**
 * `GET /2/...`, Algolia's Analytics API: analytics:read, from an analytics key sent as Algolia's clients send it
 * (CredentialsGate.admitAnalytics), or Basic, a JWT or a signed request. It acts on no instance of its own: the route
 * reads the instance its `index` names.
 */
export const RequireAnalyticsRead = () =>
  applyDecorators(
    SetMetadata(ANALYTICS_KEY, true),
    SetMetadata(PERMISSION_KEY, ANALYTICS_PERMISSION),
    ApiSecurity({ analyticsApplication: [], analyticsKey: [] }),
    ApiAuthentication(),
  );

/**
 * A route reachable without credentials (health, metrics, docs). On a class it marks each of its methods as well:
 * the HTTP layer decides from a route's handler, before the body is read, whether to ask for credentials.
 */
export const Public =
  () =>
  (target: object, key?: string | symbol, descriptor?: PropertyDescriptor): void => {
    if (descriptor) {
      SetMetadata(PUBLIC_KEY, true)(target, key as string | symbol, descriptor);
      return;
    }
    SetMetadata(PUBLIC_KEY, true)(target as () => void);
    const prototype = (target as { prototype: Record<string, unknown> }).prototype;
    for (const name of Object.getOwnPropertyNames(prototype)) {
      if (name !== 'constructor' && typeof prototype[name] === 'function') {
        Reflect.defineMetadata(PUBLIC_KEY, true, prototype[name]);
      }
    }
  };

/** The AuthContext of the current request. */
export const Auth = createParamDecorator((_: unknown, ctx: ExecutionContext): AuthContext => {
  const req = ctx.switchToHttp().getRequest<IncomingMessage>();
  if (!req.auth) {
    throw new Error('Auth() used on a public route');
  }
  return req.auth;
});
