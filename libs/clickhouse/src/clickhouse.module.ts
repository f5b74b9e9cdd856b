import { Global, Module } from '@nestjs/common';
import { ClickHouseService } from './clickhouse.service';
import { MigratorService } from './migrator.service';
import { VersionClock } from './version-clock';

@Global()
@Module({
  providers: [ClickHouseService, MigratorService, VersionClock],
  exports: [ClickHouseService, MigratorService, VersionClock],
})
export class ClickHouseModule {}
