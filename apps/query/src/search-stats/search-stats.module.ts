import { Module } from '@nestjs/common';
import { AnalyticsModule } from '../analytics/analytics.module';
import { SearchStatsController } from './search-stats.controller';
import { NewestSearchHandler } from './newest-search.handler';
import { SearchStatsHandler } from './search-stats.handler';
import { SearchStatsRepository } from './search-stats.repository';

@Module({
  imports: [AnalyticsModule],
  controllers: [SearchStatsController],
  providers: [SearchStatsRepository, SearchStatsHandler, NewestSearchHandler],
})
export class SearchStatsModule {}
