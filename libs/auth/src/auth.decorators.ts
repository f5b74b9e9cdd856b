import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import type { IncomingMessage } from 'http';
import type { AuthContext } from './auth-context';
import type { Permission } from './permissions';

export const PERMISSION_KEY = 'auth:permission';
export const PUBLIC_KEY = 'auth:public';

/** The permission a route needs; checked by the global AuthGuard. */
export const RequirePermission = (permission: Permission) => SetMetadata(PERMISSION_KEY, permission);

/** A route reachable without credentials (health, metrics, docs). */
export const Public = () => SetMetadata(PUBLIC_KEY, true);

/** The AuthContext of the current request. */
export const Auth = createParamDecorator((_: unknown, ctx: ExecutionContext): AuthContext => {
  const req = ctx.switchToHttp().getRequest<IncomingMessage>();
  if (!req.auth) throw new Error('Auth() used on a public route');
  return req.auth;
});
