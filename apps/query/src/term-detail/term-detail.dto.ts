import { ApiProperty, ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { AnalyticsFiltersDto, IntervalDto, TagsDto } from '../analytics/analytics.dto';
import { EngagementDto, ObjectEngagementView, PositionClicksView, withEngagementFields } from '../analytics/engagement.dto';
import { FilterView } from '../analytics/filter.dto';
import { SearchTermStatus } from '../analytics/search-term-status.dto';

/** The window, filters and interval of GET /search-terms/{id} (no `hits`: the detail counts every search). */
export class TermDetailDto extends IntersectionType(AnalyticsFiltersDto, IntervalDto, EngagementDto, TagsDto) {}

export class TermBucketView {
  @ApiProperty({
    format: 'date-time',
    example: '2026-11-21T00:00:00+01:00',
    description: 'Start of the hour or day, with the offset of tz',
  })
  start!: string;

  @ApiProperty({ type: 'integer', minimum: 0, example: 12, description: 'Searches of the term in the bucket (within the window)' })
  count!: number;

  @ApiProperty({ type: 'integer', minimum: 0, example: 3, description: 'Of those, the searches that found nothing' })
  zero_hit_count!: number;
}

export class TermVariantView {
  @ApiProperty({ example: 'Summer  Dress', description: 'The phrase exactly as sent by the search frontend' })
  phrase!: string;

  @ApiProperty({ type: 'integer', minimum: 1, example: 30, description: 'Searches with this spelling in the window' })
  count!: number;
}

export class TermFilterView extends FilterView {
  @ApiProperty({ type: 'integer', minimum: 1, example: 12, description: "The term's searches in the window with this filter" })
  searches!: number;

  @ApiProperty({ type: 'integer', minimum: 0, example: 4, description: 'Of those, the searches that found nothing' })
  zero_hit_searches!: number;
}

/** GET /search-terms/{id}: one term over the window (docs/architecture.md, "The analytics contracts"). */
export class SearchTermDetailView {
  @ApiProperty({ example: '892e95f4685a6d36bdb06f63b12becbb', description: 'The id of the term in GET /search-terms' })
  id!: string;

  @ApiProperty({ example: 'summer dress', description: 'The normalised phrase' })
  search_phrase!: string;

  @ApiProperty({ type: 'integer', minimum: 1, example: 42, description: 'Every search of the phrase in the window, with results or not' })
  count!: number;

  @ApiProperty({ type: 'integer', minimum: 0, example: 5, description: 'The searches of the phrase in the window that found nothing' })
  zero_hit_count!: number;

  @ApiProperty({
    type: [TermBucketView],
    description:
      'Per interval, every bucket of the window present (zeros included); the first and last day may be partly outside the window',
  })
  series!: TermBucketView[];

  @ApiProperty({
    type: [TermVariantView],
    description: 'The original spellings that normalised to the phrase, most frequent first, ties by phrase; at most 10',
  })
  variants!: TermVariantView[];

  @ApiProperty({ type: () => SearchTermStatus, description: 'Whether an entity handles the phrase, as in the hits=false list' })
  status!: SearchTermStatus;

  @ApiProperty({
    type: [TermFilterView],
    description:
      "The 10 filters most used with the term's searches in the window, most searched first, ties by attribute, operator and value",
  })
  filters!: TermFilterView[];
}
withEngagementFields(SearchTermDetailView);
ApiPropertyOptional({
  type: [PositionClicksView],
  description: 'With engagement=true: clicks per position, positions 1 to 20 then 21 (21 and beyond), every one present (zeros included)',
})(SearchTermDetailView.prototype, 'positions');
ApiPropertyOptional({
  type: [ObjectEngagementView],
  description: 'With engagement=true: the 10 objects clicked most from the tracked searches of the term, ties by object_id ascending',
})(SearchTermDetailView.prototype, 'objects');
