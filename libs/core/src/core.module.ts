import { DynamicModule, Module, ValidationPipe } from '@nestjs/common';
import { APP_PIPE } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { AuthModule } from '@app/auth';
import { ClickHouseModule } from '@app/clickhouse';
import { AppConfig, ConfigModule } from '@app/config';
import { HttpModule } from '@app/http';
import { LoggingModule } from '@app/logging';

/**
 * What every HTTP-serving app with the API stands on: configuration, logging, storage with migrations, the CQRS
 * buses, the global guards, validation pipe and exception filter. Registered as APP_* providers so tests get them too.
 */
@Module({})
export class CoreModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: CoreModule,
      imports: [
        ConfigModule.forRoot(config),
        LoggingModule.forRoot(config),
        ClickHouseModule,
        AuthModule,
        HttpModule,
        CqrsModule.forRoot(),
      ],
      providers: [
        {
          provide: APP_PIPE,
          useValue: new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, transform: true }),
        },
      ],
      exports: [CqrsModule],
    };
  }
}
