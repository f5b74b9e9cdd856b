import { DynamicModule, Module } from '@nestjs/common';
import { CoreModule } from '@app/core';
import type { AppConfig } from '@app/config';
import { QueryModule } from './query.module';

/** The query app of the distributed deployment: HTTP API only. */
@Module({})
export class QueryAppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return { module: QueryAppModule, imports: [CoreModule.forRoot(config), QueryModule] };
  }
}
