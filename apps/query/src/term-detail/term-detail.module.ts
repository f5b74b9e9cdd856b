import { Module } from '@nestjs/common';
import { AnalyticsModule } from '../analytics/analytics.module';
import { SuggestionsController } from './suggestions.controller';
import { SuggestionsHandler } from './suggestions.handler';
import { SuggestionsRepository } from './suggestions.repository';
import { TermDetailController } from './term-detail.controller';
import { TermDetailHandler } from './term-detail.handler';
import { TermDetailRepository } from './term-detail.repository';

/** GET /search-terms/{id} and its suggestions (both find the term by its id in the window). */
@Module({
  imports: [AnalyticsModule],
  controllers: [TermDetailController, SuggestionsController],
  providers: [TermDetailRepository, TermDetailHandler, SuggestionsRepository, SuggestionsHandler],
})
export class TermDetailModule {}
