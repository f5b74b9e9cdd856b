import { Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { MetricsModule } from '@app/metrics';
import { AllExceptionsFilter } from './all-exceptions.filter';
import { GracefulShutdown } from './graceful-shutdown.service';
import { MetricsController } from './metrics.controller';

/** The global exception filter (APP_FILTER, so tests and every app get it), graceful HTTP shutdown and /metrics. */
@Module({
  imports: [MetricsModule],
  controllers: [MetricsController],
  providers: [{ provide: APP_FILTER, useClass: AllExceptionsFilter }, GracefulShutdown],
})
export class HttpModule {}
