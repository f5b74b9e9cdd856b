import { Global, Module } from '@nestjs/common';
import { IntakeModule } from '@app/intake';
import { ConsumerReadiness, KafkaModule } from '@app/kafka';
import { MetricsModule } from '@app/metrics';
import { DuplicateOffsets } from './duplicate-offsets';
import { IngestConsumer } from './ingest.consumer';
import { OffsetsRepository } from './offsets.repository';

/**
 * The Kafka consumers; idle when KAFKA_BROKERS is unset. Global, so that a process's readiness probe finds its
 * consumer's readiness (ConsumerReadiness) whichever app it is.
 */
@Global()
@Module({
  imports: [IntakeModule, KafkaModule, MetricsModule],
  providers: [IngestConsumer, OffsetsRepository, DuplicateOffsets, { provide: ConsumerReadiness, useExisting: IngestConsumer }],
  exports: [IngestConsumer, ConsumerReadiness],
})
export class IngestModule {}
