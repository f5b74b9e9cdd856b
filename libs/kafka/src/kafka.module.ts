import { Module } from '@nestjs/common';
import { KafkaService } from './kafka.service';

/** The process's kafkajs client and producer (idle unless KAFKA_BROKERS is set). */
@Module({ providers: [KafkaService], exports: [KafkaService] })
export class KafkaModule {}
