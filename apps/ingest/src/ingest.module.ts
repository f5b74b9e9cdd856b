import { Module } from '@nestjs/common';
import { IntakeModule } from '@app/intake';
import { KafkaModule } from '@app/kafka';
import { MetricsModule } from '@app/metrics';
import { DuplicateOffsets } from './duplicate-offsets';
import { IngestConsumer } from './ingest.consumer';
import { OffsetsRepository } from './offsets.repository';

/** The Kafka consumers; idle when KAFKA_BROKERS is unset. */
@Module({
  imports: [IntakeModule, KafkaModule, MetricsModule],
  providers: [IngestConsumer, OffsetsRepository, DuplicateOffsets],
  exports: [IngestConsumer],
})
export class IngestModule {}
