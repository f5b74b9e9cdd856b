import type { Type } from '@nestjs/common';
import { IsIn, IsOptional } from 'class-validator';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** engagement=true: the clicks and conversions of the searches (docs/architecture.md, "Clicks and conversions"). */
export class EngagementDto {
  @ApiPropertyOptional({
    enum: ['true', 'false'],
    default: 'false',
    description: 'true: add the clicks and conversions of the tracked searches (searches sent with an id that found results)',
  })
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'engagement must be true or false' })
  engagement: 'true' | 'false' = 'false';
}

type PropertyOptions = Parameters<typeof ApiPropertyOptional>[0];
const count = (example: number, description: string): PropertyOptions => ({ type: 'integer', minimum: 0, example, description });
const rate = (example: number, description: string): PropertyOptions => ({
  type: 'number',
  nullable: true,
  minimum: 0,
  maximum: 1,
  example,
  description,
});

/** The OpenAPI properties of the engagement fields (EngagementFields), in the contract's order. */
const PROPERTIES: Array<[string, PropertyOptions]> = [
  ['tracked_searches', count(120, 'searches sent with an id that found results: the ones a shopper could click')],
  ['clicked_searches', count(48, 'tracked searches with at least one click')],
  ['click_through_rate', rate(0.4, 'clicked_searches / tracked_searches; null without tracked searches')],
  ['clicks', count(61, 'clicks on tracked searches (an identical click sent twice counts once)')],
  [
    'average_click_position',
    {
      type: 'number',
      nullable: true,
      minimum: 1,
      example: 2.7,
      description: 'mean position of those clicks (the first result is 1); null without clicks',
    },
  ],
  ['converted_searches', count(9, 'tracked searches with at least one conversion')],
  ['conversion_rate', rate(0.075, 'converted_searches / tracked_searches; null without tracked searches')],
  [
    'revenue',
    {
      type: 'object',
      additionalProperties: { type: 'number', minimum: 0 },
      example: { EUR: 1234.5 },
      description: 'sum of the conversion values per currency (ISO 4217 code), whatever their subtype; {} without any',
    },
  ],
  ['added_to_cart_searches', count(12, 'tracked searches with at least one conversion of subtype addToCart')],
  ['add_to_cart_rate', rate(0.1, 'added_to_cart_searches / tracked_searches; null without tracked searches')],
  ['purchased_searches', count(6, 'tracked searches with at least one conversion of subtype purchase')],
  ['purchase_rate', rate(0.05, 'purchased_searches / tracked_searches; null without tracked searches')],
  [
    'purchase_revenue',
    {
      type: 'object',
      additionalProperties: { type: 'number', minimum: 0 },
      example: { EUR: 834.5 },
      description: 'sum of the values of purchase conversions per currency (ISO 4217 code); {} without any',
    },
  ],
];

/** The engagement fields as optional properties of `view` ("With engagement=true: ..."), after its own. */
export function withEngagementFields(view: Type<unknown>): void {
  for (const [name, options] of PROPERTIES) {
    ApiPropertyOptional({ ...options, description: `With engagement=true: ${options?.description}` })(view.prototype as object, name);
  }
}

/** `positions` with engagement=true on `view` (list entries, stats totals), as the term detail has them. */
export function withPositions(view: Type<unknown>, of: string): void {
  ApiPropertyOptional({
    type: () => [PositionClicksView],
    description:
      `With engagement=true: clicks per position of ${of}, positions 1 to 20 then 21 (21 and beyond), ` +
      'every one present (zeros included)',
  })(view.prototype as object, 'positions');
}

/** An entry of GET /search-terms/{id}'s `positions`. */
export class PositionClicksView {
  @ApiProperty({ type: 'integer', minimum: 1, maximum: 21, example: 1, description: 'The position clicked, 1 to 20; 21 for 21 and beyond' })
  position!: number;

  @ApiProperty({ type: 'integer', minimum: 0, example: 30, description: 'Clicks at that position on the tracked searches of the term' })
  clicks!: number;
}

/** An entry of GET /search-terms/{id}'s `objects`. */
export class ObjectEngagementView {
  @ApiProperty({ example: 'sku-123', description: 'The object (product) id as the clicks and conversions sent it' })
  object_id!: string;

  @ApiProperty({ type: 'integer', minimum: 1, example: 12, description: 'Clicks on it from the tracked searches of the term' })
  clicks!: number;

  @ApiProperty({ type: 'integer', minimum: 0, example: 2, description: 'Conversions of it attributed to the tracked searches of the term' })
  conversions!: number;
}
