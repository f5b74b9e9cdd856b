import { applyDecorators, createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { ApiBasicAuth, ApiBearerAuth, ApiHeader, ApiResponse, ApiSecurity } from '@nestjs/swagger';
import type { IncomingMessage } from 'http';
import type { AuthContext } from './auth-context';
import type { Permission } from './permissions';

export const PERMISSION_KEY = 'auth:permission';
export const PUBLIC_KEY = 'auth:public';

/**
 * The permission a route needs, checked by the global AuthGuard; also documents the route's authentication in the
 * OpenAPI document (the three schemes, the HMAC and instance headers, 401 and 403).
 */
export const RequirePermission = (permission: Permission) =>
  applyDecorators(
    SetMetadata(PERMISSION_KEY, permission),
    ApiSecurity('hmac'),
    ApiBasicAuth('basic'),
    ApiBearerAuth('jwt'),
    ApiHeader({ name: 'X-Service-Nonce', required: false, description: 'HMAC: 32 hex characters, used once' }),
    ApiHeader({
      name: 'X-Service-Hash',
      required: false,
      description: "HMAC: hex HMAC-SHA256 of nonce + ':' + body, keyed with the API key",
    }),
    ApiHeader({ name: 'X-Service-Instance', required: false, description: "Instance name; default: the customer's first instance" }),
    ApiResponse({ status: 400, description: 'Invalid input; the message names the problem' }),
    ApiResponse({ status: 401, description: 'Missing or invalid credentials, unknown customer or instance' }),
    ApiResponse({ status: 403, description: `The credential lacks ${permission} (JWT: ${permission.replace(':', '.')})` }),
  );

/** A route reachable without credentials (health, metrics, docs). */
export const Public = () => SetMetadata(PUBLIC_KEY, true);

/** The AuthContext of the current request. */
export const Auth = createParamDecorator((_: unknown, ctx: ExecutionContext): AuthContext => {
  const req = ctx.switchToHttp().getRequest<IncomingMessage>();
  if (!req.auth) throw new Error('Auth() used on a public route');
  return req.auth;
});
