import { Module } from '@nestjs/common';
import { AnalyticsModule } from '../analytics/analytics.module';
import { TermDetailController } from './term-detail.controller';
import { TermDetailHandler } from './term-detail.handler';
import { TermDetailRepository } from './term-detail.repository';

@Module({ imports: [AnalyticsModule], controllers: [TermDetailController], providers: [TermDetailRepository, TermDetailHandler] })
export class TermDetailModule {}
