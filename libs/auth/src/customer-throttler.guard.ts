import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  ThrottlerGuard,
  type ThrottlerLimitDetail,
  type ThrottlerModuleOptions,
  type ThrottlerRequest,
  type ThrottlerStorage,
} from '@nestjs/throttler';
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

  /** The 429's message: the limit, whom it counts and the variable that sets it. */
  protected override getErrorMessage(context: ExecutionContext, detail: ThrottlerLimitDetail): Promise<string> {
    const { variable, per } = this.budgetOf(context);
    return Promise.resolve(`Too many requests: at most ${detail.limit} a minute ${per} (${variable}); retry after Retry-After seconds`);
  }

  /** Requests per customer (or client address) and minute the route allows. */
  private limitOf(context: ExecutionContext): number {
    return this.config[this.budgetOf(context).setting];
  }

  /** The route's budget: its setting, the variable that sets it, and whom it counts. */
  private budgetOf(context: ExecutionContext) {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(COLLECTOR_KEY, targets)) {
      return { setting: 'collectPerMinute', variable: 'COLLECT_PER_MINUTE', per: 'from this address' } as const;
    }
    return this.reflector.getAllAndOverride<boolean>(INTAKE_LIMIT_KEY, targets)
      ? ({ setting: 'intakePerMinute', variable: 'INTAKE_PER_MINUTE', per: 'for this customer' } as const)
      : ({ setting: 'rateLimitPerMinute', variable: 'RATE_LIMIT_PER_MINUTE', per: 'for this customer' } as const);
  }
}
