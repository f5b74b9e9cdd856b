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

/** A request budget: its setting, the variable that sets it, and whom it counts. */
interface Budget {
  setting: 'collectPerMinute' | 'intakePerMinute' | 'rateLimitPerMinute';
  variable: string;
  per: string;
}

/** POST /1/events' budget, per client address (counted by the CredentialsGate). */
export const COLLECT_BUDGET: Budget = { setting: 'collectPerMinute', variable: 'COLLECT_PER_MINUTE', per: 'from this address' };

/** The 429's message: the limit, whom it counts and the variable that sets it. */
export function tooManyMessage(limit: number, { variable, per }: Budget): string {
  return `Too many requests: at most ${limit} a minute ${per} (${variable}); retry after Retry-After seconds`;
}

/**
 * Rate limiting per customer (429 with Retry-After), so one noisy integration cannot starve the others. It runs
 * after authentication and counts authenticated requests only: failed authentications are limited apart, per
 * client address (FailedAuthLimiter), so nobody can spend a customer's budget with bad credentials. Public routes
 * (probes, metrics) are not limited. Each route counts apart (the throttler's key names the handler); the intake
 * route (`@IntakeRateLimit()`, POST /events) has a limit of its own, INTAKE_PER_MINUTE, every other route
 * RATE_LIMIT_PER_MINUTE. POST /1/events (`@RequireCollectorKey()`, shoppers' browsers) is not counted here: the
 * CredentialsGate counts it per client address against COLLECT_PER_MINUTE before its body is read. A limit of 0 is
 * off.
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
    const targets = [context.getHandler(), context.getClass()];
    return Promise.resolve(
      this.limitOf(context) === 0 ||
        Boolean(this.reflector.getAllAndOverride<boolean>(PUBLIC_KEY, targets)) ||
        Boolean(this.reflector.getAllAndOverride<boolean>(COLLECTOR_KEY, targets)),
    );
  }

  protected override handleRequest(request: ThrottlerRequest): Promise<boolean> {
    return super.handleRequest({ ...request, limit: this.limitOf(request.context) });
  }

  protected override getErrorMessage(context: ExecutionContext, detail: ThrottlerLimitDetail): Promise<string> {
    return Promise.resolve(tooManyMessage(detail.limit, this.budgetOf(context)));
  }

  /** Requests per customer and minute the route allows. */
  private limitOf(context: ExecutionContext): number {
    return this.config[this.budgetOf(context).setting];
  }

  /** The route's budget: its setting, the variable that sets it, and whom it counts. */
  private budgetOf(context: ExecutionContext): Budget {
    const targets = [context.getHandler(), context.getClass()];
    return this.reflector.getAllAndOverride<boolean>(INTAKE_LIMIT_KEY, targets)
      ? { setting: 'intakePerMinute', variable: 'INTAKE_PER_MINUTE', per: 'for this customer' }
      : { setting: 'rateLimitPerMinute', variable: 'RATE_LIMIT_PER_MINUTE', per: 'for this customer' };
  }
}
