import { authMigration } from './0001-auth';
import { searchEventsMigration } from './0002-search-events';
import { configurationMigration } from './0003-configuration';
import { dailyRollupMigration } from './0004-daily-rollup';
import { documentsMigration } from './0005-documents';
import { intakeRequestsMigration } from './0006-intake-requests';
import { messageHashesMigration } from './0007-message-hashes';
import { intakeClaimsMigration } from './0008-intake-claims';
import { documentOffsetsMigration } from './0009-document-offsets';
import { analyticsMigration } from './0010-analytics';
import { phraseRollupsMigration } from './0011-phrase-rollups';
import { signedEventsMigration } from './0012-signed-events';
import { keyInstancesMigration } from './0013-key-instances';
import { basicPendingMigration } from './0014-basic-pending';
import { intakeTokensMigration } from './0015-intake-tokens';
import { interactionsMigration } from './0016-interactions';
import { keyOriginsMigration } from './0017-key-origins';
import { annotationsMigration } from './0018-annotations';
import { alertsMigration } from './0020-alerts';
import { weeklyPhrasesMigration } from './0021-weekly-phrases';
import { engagementHoursMigration } from './0022-engagement-hours';
import { claimRoundsMigration } from './0023-claim-rounds';
import { engagementObjectsMigration } from './0024-engagement-objects';
import { evaluatedHoursMigration } from './0025-evaluated-hours';
import { intakeTokenIndexMigration } from './0026-intake-token-index';
import { searchDimensionsMigration } from './0027-search-dimensions';
import { engagementSubtypesMigration } from './0028-engagement-subtypes';
import { hashCodecsMigration } from './0029-hash-codecs';
import { dimensionsAheadMigration } from './0030-dimensions-ahead';
import { dimensionsUntaggedMigration } from './0031-dimensions-untagged';
import { phraseTagsMigration } from './0032-phrase-tags';
import { engagementSpansMigration } from './0033-engagement-spans';
import { keyPresetsMigration } from './0034-key-presets';
import { algoliaIndexesMigration } from './0035-algolia-indexes';
import type { Migration } from './migration';
import { SIGNED_ROLLUPS, type SignedRollup } from './0012-signed-events';
import { WEEKLY_KEYS } from './0021-weekly-phrases';
export type { RollupKeys } from './rollup-backfill';
export { selectKeys } from './rollup-backfill';
export type { SignedRollup } from './0012-signed-events';
export { searchIdsSelect } from './0022-engagement-hours';

export type { Migration, MigrationContext } from './migration';
export { ENGAGEMENT_CHANGES_KEPT_HOURS } from './0022-engagement-hours';
export { ENGAGEMENT_LAYOUT } from './0024-engagement-objects';
export { DIMENSION_TABLES, DIMENSIONS_SQL, dimensionColumns, dimensionRowsSql, type DimensionTable } from './0027-search-dimensions';
export { rawRollupRows } from './0012-signed-events';

/** Applied in this order; never reorder or edit an applied migration, add a new one. */
export const MIGRATIONS: readonly Migration[] = [
  authMigration,
  searchEventsMigration,
  configurationMigration,
  dailyRollupMigration,
  documentsMigration,
  intakeRequestsMigration,
  messageHashesMigration,
  intakeClaimsMigration,
  documentOffsetsMigration,
  analyticsMigration,
  phraseRollupsMigration,
  signedEventsMigration,
  keyInstancesMigration,
  basicPendingMigration,
  intakeTokensMigration,
  interactionsMigration,
  keyOriginsMigration,
  annotationsMigration,
  alertsMigration,
  weeklyPhrasesMigration,
  engagementHoursMigration,
  claimRoundsMigration,
  engagementObjectsMigration,
  evaluatedHoursMigration,
  intakeTokenIndexMigration,
  searchDimensionsMigration,
  engagementSubtypesMigration,
  hashCodecsMigration,
  dimensionsAheadMigration,
  dimensionsUntaggedMigration,
  phraseTagsMigration,
  engagementSpansMigration,
  keyPresetsMigration,
  algoliaIndexesMigration,
];

/** Tables whose TTL follows RETENTION_DAYS at every start-up, with the expression the TTL counts from. */
export const RETENTION_TTL: Readonly<Record<string, string>> = {
  search_events: 'toDateTime(ts)',
  search_terms_hourly: 'hour',
  search_terms_daily: 'day',
  search_totals_hourly: 'hour',
  search_term_spellings_hourly: 'hour',
  search_phrases_hourly: 'hour',
  search_phrases_daily: 'day',
  search_phrases_weekly: 'week + 7',
  rejected_events: 'toDateTime(received_at)',
  document_offsets: 'toDateTime(received_at)',
  interactions: 'toDateTime(ts)',
  search_ids: 'toDateTime(first.1)',
  erased_user_tokens: 'at',
  engagement_hourly: 'hour',
  engagement_versions: 'hour',
  engagement_phrases_hourly: 'hour',
  engagement_objects_hourly: 'hour',
  engagement_phrase_spans: 'toDateTime(span)',
  engagement_spans: 'toDateTime(span)',
  search_dimensions_hourly: 'hour',
  search_phrase_dimensions_hourly: 'hour',
  search_dimensions_untagged_hourly: 'hour',
  search_phrase_tags_hourly: 'hour',
  search_dimension_versions: 'hour',
};

/**
 * Every table a view fills from search_events by counting `sum(sign)` per key (docs/analysts.md): what the storage
 * check compares with the raw rows. A rollup added later belongs here too.
 */
export const SEARCH_ROLLUPS: readonly SignedRollup[] = [
  ...SIGNED_ROLLUPS,
  { table: 'search_phrases_weekly', view: 'search_phrases_weekly_mv', keys: WEEKLY_KEYS, aggregating: false },
];
