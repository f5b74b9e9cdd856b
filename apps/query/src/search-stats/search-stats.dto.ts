import { ApiProperty, ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { AnalyticsFiltersDto, CompareDto, IntervalDto, TagsDto } from '../analytics/analytics.dto';
import { EngagementDto, withEngagementFields, withPositions } from '../analytics/engagement.dto';

export class SearchStatsDto extends IntersectionType(AnalyticsFiltersDto, IntervalDto, CompareDto, EngagementDto, TagsDto) {}

const USERS_DESCRIPTION =
  'Distinct users (user token, else session; a search with neither counts for nobody); ' +
  'exact up to 512, beyond within 3 % (docs/architecture.md)';

export class SearchTotalsView {
  @ApiProperty({ type: 'integer', minimum: 0, example: 1200, description: 'Searches in the window' })
  searches!: number;

  @ApiProperty({ type: 'integer', minimum: 0, example: 84, description: 'Searches that found nothing' })
  zero_hit_searches!: number;

  @ApiProperty({ type: 'number', minimum: 0, maximum: 1, example: 0.07, description: 'zero_hit_searches / searches; 0 without searches' })
  zero_hit_rate!: number;

  @ApiProperty({ type: 'integer', minimum: 0, example: 310, description: 'Distinct normalised phrases searched (with results or not)' })
  distinct_terms!: number;

  @ApiProperty({ type: 'integer', minimum: 0, example: 640, description: `${USERS_DESCRIPTION} of the window's searches` })
  users!: number;
}
withEngagementFields(SearchTotalsView);
withPositions(SearchTotalsView, "the window's tracked searches (totals only, not previous)");
ApiPropertyOptional({
  type: 'integer',
  minimum: 0,
  example: 4,
  description:
    'With engagement=true: clicks in the window (by their own time, whatever the language and bot filters) whose search is not known; ' +
    'counted for their search once it arrives',
})(SearchTotalsView.prototype, 'unattributed_clicks');
ApiPropertyOptional({
  type: 'integer',
  minimum: 0,
  example: 2,
  description:
    'With engagement=true: conversions in the window (by their own time, whatever the language and bot filters) without a search ' +
    'or whose search is not known',
})(SearchTotalsView.prototype, 'unattributed_conversions');

export class SearchStatsBucketView {
  @ApiProperty({ format: 'date-time', example: '2026-11-21T00:00:00Z', description: 'Start of the hour or day, with the offset of tz' })
  start!: string;

  @ApiProperty({ type: 'integer', minimum: 0, example: 40, description: 'Searches in the bucket (within the window)' })
  searches!: number;

  @ApiProperty({ type: 'integer', minimum: 0, example: 3, description: 'Searches in the bucket that found nothing' })
  zero_hit_searches!: number;

  @ApiProperty({ type: 'number', minimum: 0, maximum: 1, example: 0.075, description: 'zero_hit_searches / searches; 0 without searches' })
  zero_hit_rate!: number;

  @ApiProperty({ type: 'integer', minimum: 0, example: 31, description: `${USERS_DESCRIPTION} of the bucket's searches` })
  users!: number;
}
withEngagementFields(SearchStatsBucketView);

export class LanguageSearchesView {
  @ApiProperty({ example: 'de', description: 'A shop language (lower case) searched in the window' })
  language!: string;

  @ApiProperty({ type: 'integer', minimum: 1, example: 950, description: 'Searches in this language in the window (with results or not)' })
  searches!: number;
}

/** GET /search-stats: totals and their series over the window (docs/architecture.md, "The analytics contracts"). */
export class SearchStatsView {
  @ApiProperty({
    format: 'date-time',
    example: '2026-11-15T10:00:00Z',
    description: 'Start of the window (inclusive), with the offset of tz',
  })
  from!: string;

  @ApiProperty({
    format: 'date-time',
    example: '2026-11-22T11:00:00Z',
    description: 'End of the window (exclusive), with the offset of tz',
  })
  to!: string;

  @ApiProperty({ enum: ['hour', 'day'], example: 'day', description: 'The bucket of the series' })
  interval!: 'hour' | 'day';

  @ApiProperty({ type: () => SearchTotalsView })
  totals!: SearchTotalsView;

  @ApiProperty({ type: [SearchStatsBucketView], description: 'Every bucket of the window present (zeros included)' })
  series!: SearchStatsBucketView[];

  @ApiPropertyOptional({
    type: () => SearchTotalsView,
    description: 'With compare=previous: the totals of the window of the same length just before',
  })
  previous?: SearchTotalsView;

  @ApiProperty({
    type: [LanguageSearchesView],
    description:
      'The languages searched in the window, most searched first, ties by language ascending; empty without searches. ' +
      'Counted as the totals (bots only with includeBotTraffic), but over every language: the `language` filter does not ' +
      'narrow this list, so that a language select can offer all languages of the window.',
  })
  languages!: LanguageSearchesView[];
}
