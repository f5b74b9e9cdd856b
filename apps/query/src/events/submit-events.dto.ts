import { ItemTenantFields } from '../common/item-tenant.dto';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ID_PATTERN, MAX_EVENTS_PER_REQUEST, MAX_PHRASE_LENGTH, MAX_SESSION_ID_LENGTH, MAX_USER_AGENT_LENGTH } from '@app/contracts';

/**
 * One search event as a frontend sends it (documentation only: the intake validates each item itself and rejects
 * a bad one with its index and reason, instead of failing the request).
 */
export class SearchEventItem extends ItemTenantFields {
  @ApiPropertyOptional({
    pattern: ID_PATTERN,
    description:
      'A UUID, with or without dashes, in any case (stored lower-case with dashes). ' +
      'Makes a retried event count once; generated when absent',
    example: '0192f7a0-6c1e-7b3a-9d4f-2e8a1c5b7d90',
  })
  id?: string;

  @ApiPropertyOptional({
    oneOf: [
      { type: 'string', format: 'date-time' },
      { type: 'integer', minimum: 1 },
    ],
    description: 'When the shopper searched: ISO-8601 with an offset, or epoch milliseconds; the receive time when absent',
    example: '2026-11-22T09:30:00Z',
  })
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
}

/** The body of POST /events (documentation only: checked by events-envelope.ts). */
export class SubmitEventsDto {
  @ApiProperty({ type: [SearchEventItem], maxItems: MAX_EVENTS_PER_REQUEST })
  events!: unknown[];
}
