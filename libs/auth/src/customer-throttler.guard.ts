import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ThrottlerGuard, type ThrottlerModuleOptions, type ThrottlerStorage } from '@nestjs/throttler';
import type { IncomingMessage } from 'http';
import { AppConfig } from '@app/config';
import { PUBLIC_KEY } from './auth.decorators';
import { customerOf } from './auth.guard';

/**
 * Rate limiting per customer (429 with Retry-After), so one noisy integration cannot starve the others. It runs
 * before authentication, so floods of bad credentials count too. Public routes (probes, metrics) are not limited.
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

  protected override async getTracker(req: Record<string, unknown>): Promise<string> {
    return customerOf(req as unknown as IncomingMessage, this.config) ?? '(no customer)';
  }

  protected override async shouldSkip(context: ExecutionContext): Promise<boolean> {
    return this.config.rateLimitPerMinute === 0 || Boolean(this.reflector.getAllAndOverride<boolean>(PUBLIC_KEY, [context.getHandler(), context.getClass()]));
  }
}
