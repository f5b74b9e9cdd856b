import { IsIn, IsOptional } from 'class-validator';
import { ApiProperty, ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { AnalyticsFiltersDto, CompareDto, CsvFormatDto, TagsDto } from '../analytics/analytics.dto';
import { EngagementDto, withEngagementFields, withPositions } from '../analytics/engagement.dto';
import { SearchTermStatus } from '../analytics/search-term-status.dto';
import { ApiNullableRefProperty } from '../common/nullable-ref';
import { PaginationDto } from '../common/pagination.dto';
import { ENGAGEMENT_SORTS, type TermsSort } from './search-terms.query';

/**
 * The list's query parameters and defaults (since, pagination, language, bots, hits) and the analytics ones (window,
 * compare, sort, handled, CSV; docs/architecture.md, "The analytics contracts"); every bad value is a 400 naming it.
 */
export class SearchTermsDto extends IntersectionType(PaginationDto, AnalyticsFiltersDto, CompareDto, EngagementDto, CsvFormatDto, TagsDto) {
  @ApiPropertyOptional({
    enum: ['true', 'false', 'all'],
    default: 'true',
    description:
      'true: terms that found results; false: zero-result terms with status; all: every search of a term counts ' +
      '(status null), each term with last_hits',
  })
  @IsOptional()
  @IsIn(['true', 'false', 'all'], { message: 'hits must be true, false or all' })
  hits: 'true' | 'false' | 'all' = 'true';

  @ApiPropertyOptional({
    enum: ['count', 'rising', ...ENGAGEMENT_SORTS],
    default: 'count',
    description:
      'count: by count, then phrase; rising: by count - previous_count, then phrase (implies compare=previous). ' +
      'By the engagement figures (each implies engagement=true; not with hits=false): no_clicks by tracked_searches - ' +
      'clicked_searches, click_through_rate, conversion_rate, average_click_position; then phrase; a term whose figure is ' +
      'null last in both orders',
  })
  @IsOptional()
  @IsIn(['count', 'rising', ...ENGAGEMENT_SORTS], {
    message: `sort must be one of count, rising, ${ENGAGEMENT_SORTS.join(', ')}`,
  })
  sort: TermsSort = 'count';

  @ApiPropertyOptional({
    enum: ['desc', 'asc'],
    default: 'desc',
    description: 'Not with sort=rising: desc (most searched, or the largest figure, first) or asc',
  })
  @IsOptional()
  @IsIn(['desc', 'asc'], { message: 'order must be desc or asc' })
  order?: 'desc' | 'asc';

  @ApiPropertyOptional({
    enum: ['true', 'false'],
    default: 'false',
    description: 'Only with hits=false: each term with with_filters, how many of its zero-result searches had a filter',
  })
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'filters must be true or false' })
  filters?: 'true' | 'false';

  @ApiPropertyOptional({
    enum: ['true', 'false'],
    description: 'Only with hits=false: only handled (true) or only unhandled (false) terms; X-Total-Count counts after the filter',
  })
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'handled must be true or false' })
  handled?: 'true' | 'false';
}

/** A search term record of GET /search-terms. */
export class SearchTermView {
  @ApiProperty({
    example: '892e95f4685a6d36bdb06f63b12becbb',
    description: '32 hex characters, stable for the customer, instance and phrase (the same phrase keeps its id across windows)',
  })
  id!: string;

  @ApiProperty({
    example: 'summer dress',
    description: 'The term entered by the shopper, normalised (Unicode NFC, trimmed, inner spaces collapsed, lower case)',
  })
  search_phrase!: string;

  @ApiProperty({ type: 'integer', example: 42, minimum: 1, description: 'Number of uses within the requested time range' })
  count!: number;

  @ApiNullableRefProperty(SearchTermStatus, 'With hits=false: whether an entity handles the zero-result term; null with hits=true')
  status!: SearchTermStatus | null;

  @ApiPropertyOptional({
    type: 'integer',
    example: 30,
    minimum: 0,
    description: 'With compare=previous (or sort=rising): uses in the window of the same length just before',
  })
  previous_count?: number;

  @ApiPropertyOptional({
    type: 'number',
    nullable: true,
    example: 0.4,
    description: 'With compare=previous (or sort=rising): count / previous_count - 1; null when previous_count is 0',
  })
  change?: number | null;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    example: 0,
    description:
      "With hits=all or engagement=true: the hits of the term's latest search in the window (the largest ts, then the larger hits)",
  })
  last_hits?: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    example: 5,
    description:
      "With hits=false&filters=true: how many of the term's zero-result searches had at least one filter (a term that found " +
      'nothing only under filters is a filter problem, not a missing product)',
  })
  with_filters?: number;
}

withEngagementFields(SearchTermView);
withPositions(SearchTermView, "the term's tracked searches (not in CSV)");
