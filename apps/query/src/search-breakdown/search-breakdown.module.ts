import { Module } from '@nestjs/common';
import { SearchBreakdownController } from './search-breakdown.controller';
import { SearchBreakdownHandler } from './search-breakdown.handler';
import { SearchBreakdownRepository } from './search-breakdown.repository';

@Module({ controllers: [SearchBreakdownController], providers: [SearchBreakdownRepository, SearchBreakdownHandler] })
export class SearchBreakdownModule {}
