import { Module } from '@nestjs/common';
import { IntakeModule } from '@app/intake';
import { MetricsModule } from '@app/metrics';
import { AnalyticsSlots } from './analytics-slots';
import { AnswerCache } from './answer-cache';
import { DimensionRefresh } from './dimension-refresh';
import { DimensionRepository } from './dimension.repository';
import { EngagementRefresh } from './engagement-refresh';
import { EngagementSpans } from './engagement-spans';
import { OldSearches } from './old-searches';
import { EngagementRawRepository } from './engagement-raw.repository';
import { EngagementRepository } from './engagement.repository';

/**
 * What the analytics features share: the answer cache, the customers' analytics slots and the engagement figures
 * and the dimension rows (read, and computed ahead every ENGAGEMENT_REFRESH_MS); windows, filters and SQL fragments are plain functions.
 */
@Module({
  imports: [IntakeModule, MetricsModule],
  providers: [
    AnalyticsSlots,
    AnswerCache,
    DimensionRefresh,
    DimensionRepository,
    EngagementRawRepository,
    EngagementRepository,
    EngagementRefresh,
    EngagementSpans,
    OldSearches,
  ],
  exports: [AnalyticsSlots, AnswerCache, DimensionRefresh, DimensionRepository, EngagementRepository, EngagementRawRepository],
})
export class AnalyticsModule {}
