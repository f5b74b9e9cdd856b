import { Module } from '@nestjs/common';
import { IntakeModule } from '@app/intake';
import { MetricsModule } from '@app/metrics';
import { AnswerCache } from './answer-cache';

/** What the analytics features share: the answer cache (windows, filters and SQL fragments are plain functions). */
@Module({ imports: [IntakeModule, MetricsModule], providers: [AnswerCache], exports: [AnswerCache] })
export class AnalyticsModule {}
