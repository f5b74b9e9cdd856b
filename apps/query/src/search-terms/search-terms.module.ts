import { Module } from '@nestjs/common';
import { IntakeModule } from '@app/intake';
import { SearchTermsController } from './search-terms.controller';
import { SearchTermsHandler } from './search-terms.handler';
import { SearchTermsRepository } from './search-terms.repository';

@Module({ imports: [IntakeModule], controllers: [SearchTermsController], providers: [SearchTermsRepository, SearchTermsHandler] })
export class SearchTermsModule {}
