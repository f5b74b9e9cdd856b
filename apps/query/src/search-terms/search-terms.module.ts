import { Module } from '@nestjs/common';
import { AnalyticsModule } from '../analytics/analytics.module';
import { SearchTermsController } from './search-terms.controller';
import { ExportSearchTermsHandler, SearchTermsHandler } from './search-terms.handler';
import { SearchTermsRepository } from './search-terms.repository';

@Module({
  imports: [AnalyticsModule],
  controllers: [SearchTermsController],
  providers: [SearchTermsRepository, SearchTermsHandler, ExportSearchTermsHandler],
})
export class SearchTermsModule {}
