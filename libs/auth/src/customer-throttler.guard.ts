import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ThrottlerGuard, type ThrottlerModuleOptions, type ThrottlerRequest, type ThrottlerStorage } from '@nestjs/throttler';
import type { IncomingMessage } from 'http';
import { AppConfig } from '@app/config';
import { INTAKE_LIMIT_KEY, PUBLIC_KEY } from './auth.decorators';

/**
 * Rate limiting per customer (429 with Retry-After), so one noisy integration cannot starve the others. It runs
 * after authentication and counts authenticated requests only: failed authentications are limited apart, per
 * client address (FailedAuthLimiter), so nobody can spend a customer's budget with bad credentials. Public routes
 * (probes, metrics) are not limited. Each route counts apart (the throttler's key names the handler); the intake
 * route (`@IntakeRateLimit()`, POST /events) has a limit of its own, INTAKE_PER_MINUTE, every other route
 * RATE_LIMIT_PER_MINUTE. A limit of 0 is off.
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
      this.limitOf(context) === 0 ||
        Boolean(this.reflector.getAllAndOverride<boolean>(PUBLIC_KEY, [context.getHandler(), context.getClass()])),
    );
  }

  protected override handleRequest(request: ThrottlerRequest): Promise<boolean> {
    return super.handleRequest({ ...request, limit: this.limitOf(request.context) });
  }

  /** Requests per customer and minute the route allows. */
  private limitOf(context: ExecutionContext): number {
    const intake = this.reflector.getAllAndOverride<boolean>(INTAKE_LIMIT_KEY, [context.getHandler(), context.getClass()]);
    return intake ? this.config.intakePerMinute : this.config.rateLimitPerMinute;
  }
}
