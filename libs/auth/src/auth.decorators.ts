import { applyDecorators, createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { ApiBasicAuth, ApiBearerAuth, ApiHeader, ApiSecurity } from '@nestjs/swagger';
import { ApiErrors } from '@app/errors';
import type { IncomingMessage } from 'http';
import type { AuthContext } from './auth-context';
import type { Permission } from './permissions';

export const PERMISSION_KEY = 'auth:permission';
export const PUBLIC_KEY = 'auth:public';

/**
 * The request headers of HMAC authentication and of the instance choice (any scheme). The OpenAPI document
 * declares them once, as reusable parameters (libs/http, openapi.ts).
 */
export const AUTH_HEADERS = [
  {
    name: 'X-Service-Nonce',
    required: false,
    description: "HMAC: used once; the spec's form is 16 random bytes as 32 lowercase hex characters",
    schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{8,128}$', example: '9f86d081884c7d659a2feaa0c55ad015' },
  },
  {
    name: 'X-Service-Hash',
    required: false,
    description: "HMAC: hex HMAC-SHA256 of nonce + ':' + the body exactly as sent (empty when none), keyed with the API key's secret",
    schema: { type: 'string', pattern: '^[0-9a-fA-F]{64}$' },
  },
  {
    name: 'X-Service-Instance',
    required: false,
    description: "The instance to act on (any scheme); default: the customer's first instance",
    schema: { type: 'string', example: 'live' },
  },
];

/**
 * The permission a route needs, checked by the global AuthGuard; also documents the route's authentication in the
 * OpenAPI document (the three schemes, the HMAC and instance headers, and the error answers every protected route
 * can give: 401, 403, 429 and 503).
 */
export const RequirePermission = (permission: Permission) =>
  applyDecorators(
    SetMetadata(PERMISSION_KEY, permission),
    ApiSecurity('hmac'),
    ApiBasicAuth('basic'),
    ApiBearerAuth('jwt'),
    ...AUTH_HEADERS.map((h) => ApiHeader(h)),
    ApiErrors(401, [403, `The credential lacks ${permission} (JWT: ${permission.replace(':', '.')})`], 429, 503),
  );

/** A route reachable without credentials (health, metrics, docs). */
export const Public = () => SetMetadata(PUBLIC_KEY, true);

/** The AuthContext of the current request. */
export const Auth = createParamDecorator((_: unknown, ctx: ExecutionContext): AuthContext => {
  const req = ctx.switchToHttp().getRequest<IncomingMessage>();
  if (!req.auth) throw new Error('Auth() used on a public route');
  return req.auth;
});
