import { ItemTenantFields } from '../common/item-tenant.dto';
import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import {
  CONVERSION_SUBTYPES,
  ID_PATTERN,
  MAX_EVENTS_PER_REQUEST,
  MAX_OBJECT_ID_LENGTH,
  MAX_PHRASE_LENGTH,
  MAX_POSITION,
  MAX_SESSION_ID_LENGTH,
  MAX_USER_AGENT_LENGTH,
  MAX_USER_TOKEN_LENGTH,
  MAX_FILTERS,
  MAX_SEARCH_USER_TOKEN_LENGTH,
  MAX_TAGS,
  MAX_TAG_LENGTH,
  VALUE_LIMIT,
} from '@app/contracts';

/** `ts` of every event item: when the shopper did it. */
const TS_PROPERTY = (what: string) => ({
  oneOf: [
    { type: 'string' as const, format: 'date-time' },
    { type: 'integer' as const, minimum: 1 },
  ],
  description: `When the shopper ${what}: ISO-8601 with an offset, or epoch milliseconds; the receive time when absent`,
  example: '2026-11-22T09:30:00Z',
});

/**
 * One search event as a frontend sends it (documentation only: the intake validates each item itself and rejects
 * a bad one with its index and reason, instead of failing the request).
 */
export class SearchEventItem extends ItemTenantFields {
  @ApiPropertyOptional({ enum: ['search'], description: 'A search event (the default; clicks and conversions say so)' })
  type?: 'search';

  @ApiPropertyOptional({
    pattern: ID_PATTERN,
    description:
      'A UUID, with or without dashes, in any case (stored lower-case with dashes). ' +
      'Makes a retried event count once; generated when absent',
    example: '0192f7a0-6c1e-7b3a-9d4f-2e8a1c5b7d90',
  })
  id?: string;

  @ApiPropertyOptional(TS_PROPERTY('searched'))
  ts?: string | number;

  @ApiProperty({ maxLength: MAX_PHRASE_LENGTH, example: 'Summer Dress', description: 'As typed; normalised for counting' })
  phrase!: string;

  @ApiProperty({ example: 'de', description: 'Shop language: letters and -, e.g. de or de-ch' })
  language!: string;

  @ApiProperty({ type: 'integer', minimum: 0, example: 12, description: 'Number of results; 0 makes it a zero-result search' })
  hits!: number;

  @ApiPropertyOptional({ maxLength: MAX_USER_AGENT_LENGTH, description: 'Used for bot detection, never stored' })
  userAgent?: string;

  @ApiPropertyOptional({ description: "The frontend's own bot verdict; wins over the user agent" })
  bot?: boolean;

  @ApiPropertyOptional({ maxLength: MAX_SESSION_ID_LENGTH, description: 'Stored only as a hash' })
  sessionId?: string;

  @ApiPropertyOptional({
    type: [String],
    maxItems: MAX_FILTERS,
    example: ['brand:Apple', 'price<=100'],
    description:
      'The filters applied to the search: `attribute:value` (facet), or `attribute<op>number` with <, <=, =, !=, >= or > ' +
      '(numeric). The attribute (1-64 characters) ends at the first :, <, >, = or !; the value has 1-200 characters; both ' +
      'trimmed, kept as sent',
  })
  filters?: string[];

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: MAX_SEARCH_USER_TOKEN_LENGTH,
    description: "The shopper's pseudonymous id, as in clicks and conversions; stored only as a hash",
  })
  userToken?: string;

  @ApiPropertyOptional({ pattern: '^[A-Za-z]{2}$', example: 'DE', description: 'Two letters, stored upper case; the shop knows it' })
  country?: string;

  @ApiPropertyOptional({
    type: [String],
    maxItems: MAX_TAGS,
    example: ['mobile', 'campaign:bf'],
    description: `Analytics tags, each 1-${MAX_TAG_LENGTH} characters without " AND " or " OR "; repeats dropped`,
  })
  tags?: string[];
}

/** What clicks and conversions share (documentation only, like SearchEventItem; docs/architecture.md). */
abstract class InteractionItemFields extends ItemTenantFields {
  @ApiPropertyOptional({
    pattern: ID_PATTERN,
    description:
      'A UUID, with or without dashes. A retried request whose items all carry ids is stored once; without ids, ' +
      'identical interactions (same type, search, object, position, subtype, value, currency, ts and user token) ' +
      'count once, so send ts',
    example: '7c1e0192-f7a0-4b3a-9d4f-2e8a1c5b7d91',
  })
  id?: string;

  @ApiPropertyOptional(TS_PROPERTY('acted'))
  ts?: string | number;

  @ApiProperty({ maxLength: MAX_OBJECT_ID_LENGTH, example: 'sku-42', description: 'The object (product) acted on, 1-200 characters' })
  objectId!: string;

  @ApiPropertyOptional({ maxLength: MAX_SESSION_ID_LENGTH, description: 'Stored only as a hash' })
  sessionId?: string;

  @ApiPropertyOptional({ maxLength: MAX_USER_TOKEN_LENGTH, description: 'The shopper; stored only as a hash' })
  userToken?: string;
}

/** A click on a search's result (documentation only). */
export class ClickEventItem extends InteractionItemFields {
  @ApiProperty({ enum: ['click'] })
  type!: 'click';

  @ApiProperty({
    pattern: ID_PATTERN,
    description: 'The `id` of the search (a search event sent with that id), with or without dashes',
    example: '0192f7a0-6c1e-7b3a-9d4f-2e8a1c5b7d90',
  })
  searchId!: string;

  @ApiProperty({
    type: 'integer',
    minimum: 1,
    maximum: MAX_POSITION,
    example: 3,
    description: 'Position of the object in the results; the first is 1',
  })
  position!: number;
}

/** A conversion (an add to cart, a purchase), after a search or not (documentation only). */
export class ConversionEventItem extends InteractionItemFields {
  @ApiProperty({ enum: ['conversion'] })
  type!: 'conversion';

  @ApiPropertyOptional({
    pattern: ID_PATTERN,
    description: 'The `id` of the search it followed; without it the conversion is stored and counted as unattributed',
    example: '0192f7a0-6c1e-7b3a-9d4f-2e8a1c5b7d90',
  })
  searchId?: string;

  @ApiPropertyOptional({ enum: CONVERSION_SUBTYPES })
  subtype?: string;

  @ApiPropertyOptional({ minimum: 0, exclusiveMaximum: true, maximum: VALUE_LIMIT, example: 19.9, description: 'Kept to 6 decimals' })
  value?: number;

  @ApiPropertyOptional({ pattern: '^[A-Za-z]{3}$', example: 'EUR', description: 'Three letters (ISO 4217); required with value' })
  currency?: string;
}

/** The body of POST /events (documentation only: checked by events-envelope.ts). */
@ApiExtraModels(SearchEventItem, ClickEventItem, ConversionEventItem)
export class SubmitEventsDto {
  @ApiProperty({
    type: 'array',
    items: { oneOf: [SearchEventItem, ClickEventItem, ConversionEventItem].map((m) => ({ $ref: getSchemaPath(m) })) },
    maxItems: MAX_EVENTS_PER_REQUEST,
    description: 'Search events, clicks and conversions, by `type` (search when absent)',
  })
  events!: unknown[];
}
