import { Module } from '@nestjs/common';
import { EventsModule } from '@app/events';
import { SearchEventsConsumer } from './search-events.consumer';

/** The Kafka consumers; idle when KAFKA_BROKERS is unset. */
@Module({ imports: [EventsModule], providers: [SearchEventsConsumer], exports: [SearchEventsConsumer] })
export class IngestModule {}
