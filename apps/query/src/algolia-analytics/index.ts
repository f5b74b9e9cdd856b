export { AlgoliaAnalyticsModule } from './algolia-analytics.module';
export { AlgoliaIndexesRepository, type AlgoliaIndex, type AlgoliaIndexes } from './algolia-indexes.repository';
export { algoliaIndexesProblem } from './algolia-index-names';
