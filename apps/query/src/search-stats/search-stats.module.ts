import { Module } from '@nestjs/common';
import { AnalyticsModule } from '../analytics/analytics.module';
import { SearchStatsController } from './search-stats.controller';
import { SearchStatsHandler } from './search-stats.handler';
import { SearchStatsRepository } from './search-stats.repository';

@Module({ imports: [AnalyticsModule], controllers: [SearchStatsController], providers: [SearchStatsRepository, SearchStatsHandler] })
export class SearchStatsModule {}
