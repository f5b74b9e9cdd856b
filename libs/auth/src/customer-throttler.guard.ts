import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ThrottlerGuard, type ThrottlerModuleOptions, type ThrottlerRequest, type ThrottlerStorage } from '@nestjs/throttler';
import type { IncomingMessage } from 'http';
import { AppConfig } from '@app/config';
import { COLLECTOR_KEY, INTAKE_LIMIT_KEY, PUBLIC_KEY } from './auth.decorators';
import { clientAddress, clientKey } from './failed-auth.limiter';

/**
 * Rate limiting per customer (429 with Retry-After), so one noisy integration cannot starve the others. It runs
 * after authentication and counts authenticated requests only: failed authentications are limited apart, per
 * client address (FailedAuthLimiter), so nobody can spend a customer's budget with bad credentials. Public routes
 * (probes, metrics) are not limited. Each route counts apart (the throttler's key names the handler); the intake
 * route (`@IntakeRateLimit()`, POST /events) has a limit of its own, INTAKE_PER_MINUTE, every other route
 * RATE_LIMIT_PER_MINUTE. POST /1/events (`@RequireCollectorKey()`, shoppers' browsers) counts per client address
 * (IPv6: per /64, as TRUST_PROXY gives it) instead, against COLLECT_PER_MINUTE. A limit of 0 is off.
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
    const message = req as unknown as IncomingMessage;
    // Set by the AuthGuard, which runs first (AuthModule registers it first).
    if (message.auth?.scheme === 'collector') {
      return Promise.resolve(`address:${clientKey(clientAddress(message))}`);
    }
    return Promise.resolve(message.auth?.customer ?? '(no customer)');
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
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(COLLECTOR_KEY, targets)) {
      return this.config.collectPerMinute;
    }
    const intake = this.reflector.getAllAndOverride<boolean>(INTAKE_LIMIT_KEY, targets);
    return intake ? this.config.intakePerMinute : this.config.rateLimitPerMinute;
  }
}
