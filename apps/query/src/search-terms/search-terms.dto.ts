import { IsIn, IsOptional, Matches } from 'class-validator';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { LANGUAGE_PATTERN } from '@app/contracts';
import { PaginationDto } from '../common/pagination.dto';

/** The spec's query parameters and defaults; every bad value is a 400 naming the parameter. */
export class SearchTermsDto extends PaginationDto {
  @ApiPropertyOptional({ description: 'Look-back in whole days, up to RETENTION_DAYS', default: '1d', example: '7d' })
  @IsOptional()
  @Matches(/^[1-9][0-9]{0,5}d$/, { message: 'since must be a number of days such as 1d, 7d or 30d' })
  since: string = '1d';

  @ApiPropertyOptional({ description: 'Shop language, e.g. de; all when omitted', example: 'de' })
  @IsOptional()
  @Matches(LANGUAGE_PATTERN, { message: 'language must contain only letters and - (e.g. de or de-ch)' })
  language?: string;

  @ApiPropertyOptional({ enum: ['true', 'false'], default: 'false', description: 'Include detected bot traffic' })
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'includeBotTraffic must be true or false' })
  includeBotTraffic: 'true' | 'false' = 'false';

  @ApiPropertyOptional({
    enum: ['true', 'false'],
    default: 'true',
    description: 'true: terms that found results; false: zero-result terms with status',
  })
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'hits must be true or false' })
  hits: 'true' | 'false' = 'true';
}

export interface SearchTermStatus {
  handled: boolean;
  handlers: Array<{ type: string; id: string }>;
}

export interface SearchTermView {
  id: string;
  search_phrase: string;
  count: number;
  status: SearchTermStatus | null;
}
