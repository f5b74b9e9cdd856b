import { Module } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { KafkaModule } from '@app/kafka';
import { MetricsModule } from '@app/metrics';
import { NotificationsModule } from '@app/notifications';
import { DataVersions } from './data-versions';
import { InProcessTransport } from './in-process.transport';
import { IngestStore } from './ingest-store.service';
import { IngestWriter } from './ingest-writer';
import { IntakeClaimsRepository } from './intake-claims.repository';
import { IntakeKinds } from './intake-kinds';
import { IntakeService } from './intake.service';
import { IntakeTokensRepository } from './intake-tokens.repository';
import { IntakeTransport } from './intake-transport';
import { KafkaTransport } from './kafka.transport';
import { SearchEventsRepository } from './search-events.repository';
import { StorageCheck } from './storage-check.service';
import { StorageCheckRepository } from './storage-check.repository';
import { StorageInsertMetrics } from './storage-insert-metrics';

/** Validation, storage and transport of search events and catalogue documents; the transport is chosen here, once. */
@Module({
  imports: [KafkaModule, MetricsModule, NotificationsModule],
  providers: [
    DataVersions,
    IngestWriter,
    IngestStore,
    IntakeKinds,
    IntakeClaimsRepository,
    IntakeTokensRepository,
    IntakeService,
    SearchEventsRepository,
    StorageInsertMetrics,
    StorageCheck,
    StorageCheckRepository,
    InProcessTransport,
    KafkaTransport,
    {
      provide: IntakeTransport,
      inject: [AppConfig, InProcessTransport, KafkaTransport],
      useFactory: (config: AppConfig, inProcess: InProcessTransport, kafka: KafkaTransport) => (config.kafka.brokers ? kafka : inProcess),
    },
  ],
  exports: [DataVersions, IngestStore, IntakeClaimsRepository, IntakeKinds, IntakeService, SearchEventsRepository],
})
export class IntakeModule {}
