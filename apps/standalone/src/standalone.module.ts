import { DynamicModule, Module } from '@nestjs/common';
import { CoreModule } from '@app/core';
import type { AppConfig } from '@app/config';
import { IngestModule } from '@app/ingest';
import { QueryModule } from '@app/query';

/**
 * The embedded deployment: query and ingest in one process, because the embedded engine binds one data
 * directory per process. With KAFKA_BROKERS set it also consumes Kafka; otherwise POST /events writes in-process.
 */
@Module({})
export class StandaloneModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: StandaloneModule,
      imports: [CoreModule.forRoot(config), QueryModule, ...(config.kafka.brokers ? [IngestModule] : [])],
    };
  }
}
