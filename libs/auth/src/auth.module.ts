import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ApiKeysRepository } from './api-keys.repository';
import { AuthGuard } from './auth.guard';
import { BasicAuthenticator, HmacAuthenticator, JwtAuthenticator } from './authenticators';
import { CustomersRepository } from './customers.repository';
import { NoncesRepository } from './nonces.repository';
import { ProvisioningService } from './provisioning.service';

/** Registers the global AuthGuard (as APP_GUARD, so every app and test gets it). */
@Global()
@Module({
  providers: [
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
