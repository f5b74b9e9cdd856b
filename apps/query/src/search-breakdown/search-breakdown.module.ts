import { Module } from '@nestjs/common';
import { AnalyticsModule } from '../analytics/analytics.module';
import { SearchBreakdownController } from './search-breakdown.controller';
import { SearchBreakdownHandler } from './search-breakdown.handler';
import { SearchBreakdownRepository } from './search-breakdown.repository';

@Module({
  imports: [AnalyticsModule],
  controllers: [SearchBreakdownController],
  providers: [SearchBreakdownRepository, SearchBreakdownHandler],
})
export class SearchBreakdownModule {}
