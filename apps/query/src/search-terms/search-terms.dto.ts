import { IsIn, IsOptional, Matches } from 'class-validator';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { LANGUAGE_PATTERN } from '@app/contracts';
import { PaginationDto } from '../common/pagination.dto';
import { ENTITY_TYPES } from '../entities/entity-types';

/** The spec's query parameters and defaults; every bad value is a 400 naming the parameter. */
export class SearchTermsDto extends PaginationDto {
  @ApiPropertyOptional({
    description: 'Look-back in whole days, up to RETENTION_DAYS',
    default: '1d',
    example: '7d',
    pattern: '^[1-9][0-9]{0,5}d$',
  })
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

/** An entity that handles a zero-result phrase (one of the webhook's entity types, e.g. a landing page or synonym). */
export class SearchTermHandler {
  @ApiProperty({ enum: ENTITY_TYPES, enumName: 'EntityType', example: 'landingpage', description: 'Entity type (PUT /entities/{type})' })
  type!: string;

  @ApiProperty({ example: 'summer-sale', description: 'Entity id' })
  id!: string;
}

export class SearchTermStatus {
  @ApiProperty({ description: 'true when at least one entity handles the phrase' })
  handled!: boolean;

  @ApiProperty({ type: [SearchTermHandler], description: 'The entities that handle the phrase' })
  handlers!: SearchTermHandler[];
}

/** The spec's search term record. */
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

  @ApiProperty({
    type: () => SearchTermStatus,
    nullable: true,
    description: 'With hits=false: whether an entity handles the zero-result term; null with hits=true',
  })
  status!: SearchTermStatus | null;
}
