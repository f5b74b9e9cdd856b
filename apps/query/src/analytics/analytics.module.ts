import { Module } from '@nestjs/common';
import { IntakeModule } from '@app/intake';
import { AnswerCache } from './answer-cache';

/** What the analytics features share: the answer cache (windows, filters and SQL fragments are plain functions). */
@Module({ imports: [IntakeModule], providers: [AnswerCache], exports: [AnswerCache] })
export class AnalyticsModule {}
