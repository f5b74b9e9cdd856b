import { Global, Module } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { KafkaModule, KafkaService } from '@app/kafka';
import { DataVersions } from './data-versions';
import { DocumentIntake } from './document-intake';
import { DocumentsRepository } from './documents.repository';
import { EventIntake, InProcessEventIntake, KafkaEventIntake } from './event-intake';
import { IngestWriter } from './ingest-writer';
import { IntakeClaimsRepository } from './intake-claims';
import { SearchEventValidator } from './search-event-validator';
import { SearchEventsRepository } from './search-events.repository';

/** Search-event validation, storage and the intake transport (Kafka when KAFKA_BROKERS is set). */
@Global()
@Module({
  imports: [KafkaModule],
  providers: [
    DataVersions,
    IngestWriter,
    DocumentsRepository,
    DocumentIntake,
    SearchEventValidator,
    SearchEventsRepository,
    IntakeClaimsRepository,
    {
      provide: EventIntake,
      inject: [AppConfig, SearchEventValidator, SearchEventsRepository, IntakeClaimsRepository, KafkaService],
      useFactory: (config: AppConfig, validator: SearchEventValidator, repository: SearchEventsRepository, claims: IntakeClaimsRepository, kafka: KafkaService) =>
        config.kafka.brokers ? new KafkaEventIntake(validator, repository, claims, kafka, config) : new InProcessEventIntake(validator, repository),
    },
  ],
  exports: [EventIntake, SearchEventValidator, SearchEventsRepository, DataVersions, DocumentsRepository, DocumentIntake],
})
export class EventsModule {}
