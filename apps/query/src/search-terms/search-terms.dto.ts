import { IsIn, IsOptional, Matches } from 'class-validator';
import { PaginationDto } from '../common/pagination.dto';

/** The spec's query parameters and defaults; every bad value is a 400 naming the parameter. */
export class SearchTermsDto extends PaginationDto {
  @IsOptional()
  @Matches(/^[1-9][0-9]{0,5}d$/, { message: 'since must be a number of days such as 1d, 7d or 30d' })
  since: string = '1d';

  @IsOptional()
  @Matches(/^[A-Za-z]+(-[A-Za-z]+)*$/, { message: 'language must contain only letters and -' })
  @Matches(/^.{1,35}$/, { message: 'language must be at most 35 characters' })
  language?: string;

  @IsOptional()
  @IsIn(['true', 'false'], { message: 'includeBotTraffic must be true or false' })
  includeBotTraffic: 'true' | 'false' = 'false';

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
