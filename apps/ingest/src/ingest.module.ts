import { Module } from '@nestjs/common';
import { EventsModule } from '@app/events';
import { IngestConsumer } from './ingest.consumer';

/** The Kafka consumers; idle when KAFKA_BROKERS is unset. */
@Module({ imports: [EventsModule], providers: [IngestConsumer], exports: [IngestConsumer] })
export class IngestModule {}
