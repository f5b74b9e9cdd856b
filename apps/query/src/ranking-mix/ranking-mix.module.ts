import { Module } from '@nestjs/common';
import { CheckDataHandler } from './check-data.handler';
import { DocumentStatsRepository } from './document-stats.repository';
import { RankingMixController } from './ranking-mix.controller';

@Module({ controllers: [RankingMixController], providers: [CheckDataHandler, DocumentStatsRepository] })
export class RankingMixModule {}
