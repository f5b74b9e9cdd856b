import { Module } from '@nestjs/common';
import { CheckDataHandler } from './check-data.handler';
import { RankingMixController } from './ranking-mix.controller';

@Module({ controllers: [RankingMixController], providers: [CheckDataHandler] })
export class RankingMixModule {}
