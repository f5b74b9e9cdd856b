import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import { AppConfig } from '@app/config';
import { CustomerThrottlerGuard } from './customer-throttler.guard';
import { ApiKeysRepository } from './api-keys.repository';
import { AuthGuard } from './auth.guard';
import { AnalyticsKeyAuthenticator, BasicAuthenticator, CollectorAuthenticator, HmacAuthenticator } from './authenticators';
import { CollectedRows } from './collected-rows';
import { CredentialsGate } from './credentials-gate';
import { CustomersRepository } from './customers.repository';
import { FailedAuthLimiter } from './failed-auth.limiter';
import { JwtAuthenticator } from './jwt.authenticator';
import { NoncesRepository } from './nonces.repository';
import { PasswordChecks } from './password-checks';
import { ProvisioningService } from './provisioning.service';

/**
 * Registers the global guards (as APP_GUARD, so every app and test gets them), in this order: authentication
 * (with the per-address limit of failed authentications), then the per-customer rate limit of authenticated
 * requests.
 */
@Module({
  imports: [
    ThrottlerModule.forRootAsync({
      inject: [AppConfig],
      // The throttler is named "default" so the answer carries a plain Retry-After header. CustomerThrottlerGuard sets
      // each route's limit (RATE_LIMIT_PER_MINUTE, or INTAKE_PER_MINUTE for the intake route).
      useFactory: (config: AppConfig) => ({
        throttlers: [{ name: 'default', ttl: 60_000, limit: Math.max(1, config.rateLimitPerMinute) }],
      }),
    }),
  ],
  providers: [
    ApiKeysRepository,
    CustomersRepository,
    NoncesRepository,
    HmacAuthenticator,
    BasicAuthenticator,
    JwtAuthenticator,
    CollectorAuthenticator,
    AnalyticsKeyAuthenticator,
    ProvisioningService,
    FailedAuthLimiter,
    PasswordChecks,
    CredentialsGate,
    CollectedRows,
    { provide: APP_GUARD, useClass: AuthGuard },
    { provide: APP_GUARD, useClass: CustomerThrottlerGuard },
  ],
  exports: [ApiKeysRepository, CustomersRepository, ProvisioningService, CredentialsGate, CollectedRows],
})
export class AuthModule {}
