import { Global, Module } from '@nestjs/common';
import { ClickHouseService } from './clickhouse.service';
import { MigratorService } from './migrator.service';
import { ClickHouseCluster } from './cluster/clickhouse-cluster.service';
import { VersionClock } from './version-clock';

@Global()
@Module({
  providers: [ClickHouseService, ClickHouseCluster, MigratorService, VersionClock],
  exports: [ClickHouseService, ClickHouseCluster, MigratorService, VersionClock],
})
export class ClickHouseModule {}
