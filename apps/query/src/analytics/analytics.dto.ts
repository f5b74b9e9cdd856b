import { IsIn, IsOptional, Matches, MaxLength } from 'class-validator';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { LANGUAGE_PATTERN } from '@app/contracts';

/** A date (midnight in tz), or a date-time with an optional offset; luxon checks that the date exists. */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}(:\d{2}(:\d{2}(\.\d{1,9})?)?)?(Z|[+-](0\d|1[0-4])(:?[0-5]\d)?)?)?$/;
const ISO_TIME_MESSAGE = 'must be an ISO-8601 date (2026-11-01) or date-time (2026-11-01T10:00, optionally with Z or an offset)';

/** The window every analytics request takes (docs/architecture.md, "Counting rules"); its rules are in window.ts. */
export class AnalyticsWindowDto {
  @ApiPropertyOptional({
    description: 'Look-back in whole days, up to RETENTION_DAYS, ending with the current hour; default 1d. Not with from/to',
    example: '7d',
    pattern: '^[1-9][0-9]{0,5}d$',
  })
  @IsOptional()
  @Matches(/^[1-9][0-9]{0,5}d$/, { message: 'since must be a number of days such as 1d, 7d or 30d' })
  since?: string;

  @ApiPropertyOptional({
    description:
      'Start of the window (inclusive, rounded down to the hour), with to; a date is midnight in tz, a date-time without offset is in tz',
    example: '2026-11-01',
    pattern: ISO_TIME.source,
  })
  @IsOptional()
  @Matches(ISO_TIME, { message: `from ${ISO_TIME_MESSAGE}` })
  from?: string;

  @ApiPropertyOptional({
    description: 'End of the window (exclusive, rounded up to the hour), with from; read as from',
    example: '2026-11-08',
    pattern: ISO_TIME.source,
  })
  @IsOptional()
  @Matches(ISO_TIME, { message: `to ${ISO_TIME_MESSAGE}` })
  to?: string;

  @ApiPropertyOptional({
    description:
      'IANA time zone: where days begin, how from/to without offset are read, the offset of times in the answer. Whole-hour offsets only',
    default: 'UTC',
    example: 'Europe/Berlin',
    maxLength: 64,
  })
  @IsOptional()
  @MaxLength(64, { message: 'tz must be an IANA time zone name such as UTC or Europe/Berlin' })
  tz?: string;
}

/** The window and the filters every analytics request takes. */
export class AnalyticsFiltersDto extends AnalyticsWindowDto {
  @ApiPropertyOptional({ description: 'Shop language, e.g. de; all when omitted', example: 'de' })
  @IsOptional()
  @Matches(LANGUAGE_PATTERN, { message: 'language must contain only letters and - (e.g. de or de-ch)' })
  language?: string;

  @ApiPropertyOptional({ enum: ['true', 'false'], default: 'false', description: 'Include detected bot traffic' })
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'includeBotTraffic must be true or false' })
  includeBotTraffic: 'true' | 'false' = 'false';
}

/** compare=previous: the same figures for the window of the same length just before. */
export class CompareDto {
  @ApiPropertyOptional({ enum: ['previous'], description: 'Add the figures of the window of the same length just before' })
  @IsOptional()
  @IsIn(['previous'], { message: 'compare must be previous' })
  compare?: 'previous';
}

/** The series' bucket size of the term detail and of the totals. */
export class IntervalDto {
  @ApiPropertyOptional({
    enum: ['hour', 'day'],
    description: 'Bucket of the series: hour, or day in tz; default hour for windows up to 48 hours, else day; at most 2,000 buckets',
  })
  @IsOptional()
  @IsIn(['hour', 'day'], { message: 'interval must be hour or day' })
  interval?: 'hour' | 'day';
}

/** `tags`: only the searches carrying these analytics tags (tags-param.ts reads it). */
export class TagsDto {
  @ApiPropertyOptional({
    description:
      'Only searches carrying these analytics tags: one tag, or tags joined by " AND " (all of them) or by " OR " (any of them), ' +
      'upper case, not both; each tag percent-decoded once (as Algolia writes its tags parameter)',
    example: 'mobile AND campaign%3Abf',
    maxLength: 2100,
  })
  @IsOptional()
  @MaxLength(2100, { message: 'tags is longer than 2,100 characters' })
  tags?: string;
}

/** `format`: the answer as CSV (common/csv.ts negotiates it with the Accept header). */
export class CsvFormatDto {
  @ApiPropertyOptional({
    enum: ['json', 'csv'],
    description: 'csv: the answer as CSV (as with Accept: text/csv); without _start/_end every row, up to 100,000',
  })
  @IsOptional()
  @IsIn(['json', 'csv'], { message: 'format must be json or csv' })
  format?: 'json' | 'csv';
}
