import { Module } from '@nestjs/common';
import { AuthModule } from '@app/auth';
import { AlgoliaFiguresController } from './algolia-figures.controller';
import { AlgoliaIndexesRepository } from './algolia-indexes.repository';
import { AlgoliaNative } from './algolia-native';
import { AlgoliaScopes } from './algolia-scope';
import { AlgoliaSearchesController } from './algolia-searches.controller';

/**
 * Algolia's Analytics API v2 (`GET /2/...`), for the clients shops already read with (docs/algolia.md): thin adapters
 * over the native answers, whose handlers the native feature modules register. It keeps the index names the
 * configuration declares (AlgoliaIndexesRepository).
 */
@Module({
  imports: [AuthModule],
  controllers: [AlgoliaSearchesController, AlgoliaFiguresController],
  providers: [AlgoliaScopes, AlgoliaNative, AlgoliaIndexesRepository],
  exports: [AlgoliaIndexesRepository],
})
export class AlgoliaAnalyticsModule {}
