import { Global, Module } from '@nestjs/common';
import { ClickHouseService } from './clickhouse.service';
import { MigratorService } from './migrator.service';

@Global()
@Module({
  providers: [ClickHouseService, MigratorService],
  exports: [ClickHouseService, MigratorService],
})
export class ClickHouseModule {}
