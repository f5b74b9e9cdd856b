import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ThrottlerGuard, type ThrottlerModuleOptions, type ThrottlerStorage } from '@nestjs/throttler';
import type { IncomingMessage } from 'http';
import { AppConfig } from '@app/config';
import { PUBLIC_KEY } from './auth.decorators';

/**
 * Rate limiting per customer (429 with Retry-After), so one noisy integration cannot starve the others. It runs
 * after authentication and counts authenticated requests only: failed authentications are limited apart, per
 * client address (FailedAuthLimiter), so nobody can spend a customer's budget with bad credentials. Public routes
 * (probes, metrics) are not limited.
 */
@Injectable()
export class CustomerThrottlerGuard extends ThrottlerGuard {
  constructor(
    options: ThrottlerModuleOptions,
    storage: ThrottlerStorage,
    reflector: Reflector,
    private readonly config: AppConfig,
  ) {
    super(options, storage, reflector);
  }

  protected override getTracker(req: Record<string, unknown>): Promise<string> {
    // Set by the AuthGuard, which runs first (AuthModule registers it first).
    return Promise.resolve((req as unknown as IncomingMessage).auth?.customer ?? '(no customer)');
  }

  protected override shouldSkip(context: ExecutionContext): Promise<boolean> {
    return Promise.resolve(
      this.config.rateLimitPerMinute === 0 ||
        Boolean(this.reflector.getAllAndOverride<boolean>(PUBLIC_KEY, [context.getHandler(), context.getClass()])),
    );
  }
}
