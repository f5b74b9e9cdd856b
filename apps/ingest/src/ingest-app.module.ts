import { DynamicModule, Module } from '@nestjs/common';
import { ClickHouseModule } from '@app/clickhouse';
import { AppConfig, ConfigModule } from '@app/config';
import { NotificationsModule } from '@app/notifications';
import { IngestModule } from './ingest.module';

/** The ingest app of the distributed deployment: Kafka in, ClickHouse out, no HTTP API. */
@Module({})
export class IngestAppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return { module: IngestAppModule, imports: [ConfigModule.forRoot(config), ClickHouseModule, NotificationsModule, IngestModule] };
  }
}
