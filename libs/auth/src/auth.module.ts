import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import { AppConfig } from '@app/config';
import { CustomerThrottlerGuard } from './customer-throttler.guard';
import { ApiKeysRepository } from './api-keys.repository';
import { AuthGuard } from './auth.guard';
import { BasicAuthenticator, HmacAuthenticator, JwtAuthenticator } from './authenticators';
import { CustomersRepository } from './customers.repository';
import { NoncesRepository } from './nonces.repository';
import { ProvisioningService } from './provisioning.service';

/**
 * Registers the global guards (as APP_GUARD, so every app and test gets them): the per-customer rate limit first,
 * then authentication.
 */
@Global()
@Module({
  imports: [
    ThrottlerModule.forRootAsync({
      inject: [AppConfig],
      // The throttler is named "default" so the answer carries a plain Retry-After header.
      useFactory: (config: AppConfig) => ({ throttlers: [{ name: 'default', ttl: 60_000, limit: Math.max(1, config.rateLimitPerMinute) }] }),
    }),
  ],
  providers: [
    { provide: APP_GUARD, useClass: CustomerThrottlerGuard },
    ApiKeysRepository,
    CustomersRepository,
    NoncesRepository,
    HmacAuthenticator,
    BasicAuthenticator,
    JwtAuthenticator,
    ProvisioningService,
    { provide: APP_GUARD, useClass: AuthGuard },
  ],
  exports: [ApiKeysRepository, CustomersRepository, ProvisioningService],
})
export class AuthModule {}
