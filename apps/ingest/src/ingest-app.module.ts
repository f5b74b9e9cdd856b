import { DynamicModule, Module } from '@nestjs/common';
import { ClickHouseModule } from '@app/clickhouse';
import { AppConfig, ConfigModule } from '@app/config';
import { HttpModule } from '@app/http';
import { LoggingModule } from '@app/logging';
import { IngestHealthController } from './ingest-health.controller';
import { IngestModule } from './ingest.module';

/** The ingest app of the distributed deployment: Kafka in, ClickHouse out; HTTP only for /health and /metrics. */
@Module({})
export class IngestAppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: IngestAppModule,
      imports: [ConfigModule.forRoot(config), LoggingModule.forRoot(config), ClickHouseModule, HttpModule, IngestModule],
      controllers: [IngestHealthController],
    };
  }
}
