import { Module } from '@nestjs/common';
import { EventsModule } from '@app/events';
import { IngestConsumer } from './ingest.consumer';
import { OffsetsRepository } from './offsets.repository';

/** The Kafka consumers; idle when KAFKA_BROKERS is unset. */
@Module({ imports: [EventsModule], providers: [IngestConsumer, OffsetsRepository], exports: [IngestConsumer] })
export class IngestModule {}
