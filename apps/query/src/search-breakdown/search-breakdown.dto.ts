import { IsIn, IsOptional, MaxLength } from 'class-validator';
import { ApiProperty, ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { AnalyticsFiltersDto, CsvFormatDto, TagsDto } from '../analytics/analytics.dto';
import { FilterView } from '../analytics/filter.dto';
import { PaginationDto } from '../common/pagination.dto';

export const BREAKDOWNS = ['filter_attribute', 'filter_value', 'filter_set', 'country', 'tag'] as const;
export type Breakdown = (typeof BREAKDOWNS)[number];

/** GET /search-breakdown's query: one dimension of the window's searches (docs/architecture.md, "Filters, users, countries and tags"). */
export class SearchBreakdownDto extends IntersectionType(PaginationDto, AnalyticsFiltersDto, TagsDto, CsvFormatDto) {
  @ApiProperty({
    enum: BREAKDOWNS,
    description:
      'The dimension: filter attributes, the values of one attribute (with attribute), whole filter sets, countries or analytics tags',
  })
  @IsIn(BREAKDOWNS, { message: `by is required: one of ${BREAKDOWNS.join(', ')}` })
  by!: Breakdown;

  @ApiPropertyOptional({
    description: 'With by=filter_value (and only there, where it is required): the filter attribute',
    example: 'brand',
  })
  @IsOptional()
  @MaxLength(64, { message: 'attribute must be 1 to 64 characters' })
  attribute?: string;

  @ApiPropertyOptional({ description: "Only this phrase's searches (normalised as the list's phrases)", example: 'summer dress' })
  @IsOptional()
  @MaxLength(500, { message: 'phrase is longer than 500 characters' })
  phrase?: string;

  @ApiPropertyOptional({
    enum: ['true', 'false'],
    description: 'true: only searches with results; false: only those without; all when omitted',
  })
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'hits must be true or false' })
  hits?: 'true' | 'false';

  @ApiPropertyOptional({ enum: ['searches', 'zero_hit_searches'], default: 'searches', description: 'The order, then the key ascending' })
  @IsOptional()
  @IsIn(['searches', 'zero_hit_searches'], { message: 'sort must be searches or zero_hit_searches' })
  sort: 'searches' | 'zero_hit_searches' = 'searches';

  @ApiPropertyOptional({ enum: ['desc', 'asc'], default: 'desc', description: 'desc: most first; asc: least used first' })
  @IsOptional()
  @IsIn(['desc', 'asc'], { message: 'order must be desc or asc' })
  order: 'desc' | 'asc' = 'desc';
}

/** One entry of GET /search-breakdown: its key (by `by`), then the figures. */
export class SearchBreakdownEntryView {
  @ApiPropertyOptional({ example: 'brand', description: 'by=filter_attribute and by=filter_value: the filter attribute' })
  attribute?: string;

  @ApiPropertyOptional({ example: ':', description: 'by=filter_value: the operator' })
  operator?: string;

  @ApiPropertyOptional({ example: 'Apple', description: 'by=filter_value: the value' })
  value?: string;

  @ApiPropertyOptional({
    type: [FilterView],
    description: 'by=filter_set: the whole set of filters of the searches, sorted, without repeats',
  })
  filters?: FilterView[];

  @ApiPropertyOptional({ example: 'DE', description: 'by=country: two letters, upper case' })
  country?: string;

  @ApiPropertyOptional({ example: 'mobile', description: 'by=tag: an analytics tag' })
  tag?: string;

  @ApiProperty({ type: 'integer', minimum: 1, example: 120, description: 'Searches of the window with this key' })
  searches!: number;

  @ApiProperty({ type: 'integer', minimum: 0, example: 9, description: 'Of these, the searches that found nothing' })
  zero_hit_searches!: number;

  @ApiProperty({ type: 'number', minimum: 0, maximum: 1, example: 0.075, description: 'zero_hit_searches / searches' })
  zero_hit_rate!: number;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    example: 80,
    description:
      'Distinct users of these searches (user token, else session; a search with neither counts for nobody); ' +
      'exact up to 512, beyond within 3 % (docs/architecture.md)',
  })
  users!: number;
}
