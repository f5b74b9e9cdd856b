import { Module } from '@nestjs/common';
import { SearchTermsController } from './search-terms.controller';
import { SearchTermsHandler } from './search-terms.handler';
import { SearchTermsRepository } from './search-terms.repository';

@Module({ controllers: [SearchTermsController], providers: [SearchTermsRepository, SearchTermsHandler] })
export class SearchTermsModule {}
