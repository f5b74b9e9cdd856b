import { Module } from '@nestjs/common';
import { CredentialsBootstrap } from './bootstrap/credentials-bootstrap.service';
import { EventsFeatureModule } from './events/events.module';
import { HealthModule } from './health/health.module';
import { SecretsModule } from './secrets/secrets.module';

/** The query side's features (HTTP API); needs CoreModule beside it. */
@Module({
  imports: [HealthModule, SecretsModule, EventsFeatureModule],
  providers: [CredentialsBootstrap],
  exports: [CredentialsBootstrap],
})
export class QueryModule {}
