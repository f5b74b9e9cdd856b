import { Module } from '@nestjs/common';
import { MetricsService } from './metrics.service';

/** The process's Prometheus registry; served at /metrics by the HTTP layer (libs/http). */
@Module({ providers: [MetricsService], exports: [MetricsService] })
export class MetricsModule {}
