import { Module } from '@nestjs/common';
import { IntakeModule } from '@app/intake';
import { MetricsModule } from '@app/metrics';
import { AnalyticsSlots } from './analytics-slots';
import { AnswerCache } from './answer-cache';

/**
 * What the analytics features share: the answer cache and the customers' analytics slots (windows, filters and SQL
 * fragments are plain functions).
 */
@Module({ imports: [IntakeModule, MetricsModule], providers: [AnalyticsSlots, AnswerCache], exports: [AnalyticsSlots, AnswerCache] })
export class AnalyticsModule {}
