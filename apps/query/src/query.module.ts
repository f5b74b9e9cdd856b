import { Module } from '@nestjs/common';
import { AuthModule } from '@app/auth';
import { AnnotationsModule } from './annotations/annotations.module';
import { CredentialsBootstrap } from './bootstrap/credentials-bootstrap.service';
import { ConfigurationModule } from './configuration/configuration.module';
import { DashboardModule } from './dashboard/dashboard.module';
import { DocumentsModule } from './documents/documents.module';
import { EntitiesModule } from './entities/entities.module';
import { EventsModule } from './events/events.module';
import { InsightsModule } from './insights/insights.module';
import { HealthModule } from './health/health.module';
import { NotificationsFeatureModule } from './notifications/notifications.module';
import { RankingMixModule } from './ranking-mix/ranking-mix.module';
import { ClickedObjectsModule } from './clicked-objects/clicked-objects.module';
import { SearchBreakdownModule } from './search-breakdown/search-breakdown.module';
import { SearchStatsModule } from './search-stats/search-stats.module';
import { SearchTermsModule } from './search-terms/search-terms.module';
import { TermDetailModule } from './term-detail/term-detail.module';
import { InstancesModule } from './instances/instances.module';
import { ApiKeysModule } from './api-keys/api-keys.module';
import { AlgoliaAnalyticsModule } from './algolia-analytics/algolia-analytics.module';

/** The query side's features (HTTP API); needs CoreModule beside it. */
@Module({
  imports: [
    AuthModule,
    HealthModule,
    ApiKeysModule,
    EventsModule,
    InsightsModule,
    ConfigurationModule,
    EntitiesModule,
    NotificationsFeatureModule,
    SearchTermsModule,
    TermDetailModule,
    SearchStatsModule,
    SearchBreakdownModule,
    ClickedObjectsModule,
    AlgoliaAnalyticsModule,
    AnnotationsModule,
    InstancesModule,
    DashboardModule,
    DocumentsModule,
    RankingMixModule,
  ],
  providers: [CredentialsBootstrap],
  exports: [CredentialsBootstrap],
})
export class QueryModule {}
