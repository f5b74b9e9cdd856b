import { IsOptional, MaxLength } from 'class-validator';
import { ApiProperty, ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { AnalyticsFiltersDto, CsvFormatDto } from '../analytics/analytics.dto';
import { PaginationDto } from '../common/pagination.dto';

/** GET /clicked-objects' query: the window, filters, a phrase, paging and CSV. */
export class ClickedObjectsDto extends IntersectionType(PaginationDto, AnalyticsFiltersDto, CsvFormatDto) {
  @ApiPropertyOptional({ description: "Only this phrase's searches (normalised as the list's phrases)", example: 'summer dress' })
  @IsOptional()
  @MaxLength(500, { message: 'phrase is longer than 500 characters' })
  phrase?: string;
}

/** An object clicked after the window's tracked searches. */
export class ClickedObjectView {
  @ApiProperty({ example: 'sku-42', description: 'The object (product) id as the clicks sent it' })
  object_id!: string;

  @ApiProperty({ type: 'integer', minimum: 1, example: 30, description: 'Clicks on it from the tracked searches of the window' })
  clicks!: number;

  @ApiProperty({ type: 'integer', minimum: 1, example: 24, description: 'Tracked searches with at least one click on it' })
  clicked_searches!: number;

  @ApiProperty({ type: 'integer', minimum: 0, example: 5, description: 'Conversions of it attributed to those searches, any subtype' })
  conversions!: number;

  @ApiProperty({ type: 'integer', minimum: 0, example: 4, description: 'Tracked searches with an addToCart conversion of it' })
  added_to_cart_searches!: number;

  @ApiProperty({ type: 'integer', minimum: 0, example: 2, description: 'Tracked searches with a purchase conversion of it' })
  purchased_searches!: number;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'number', minimum: 0 },
    example: { EUR: 59.8 },
    description: 'The value of its purchase conversions per currency (ISO 4217 code); {} without any',
  })
  purchase_revenue!: Record<string, number>;
}
