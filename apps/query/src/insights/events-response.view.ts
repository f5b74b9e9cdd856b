import { ApiProperty, ApiSchema } from '@nestjs/swagger';

/**
 * Every answer of POST /1/events, as Algolia's Insights API defines `EventsResponse` (no other field: clients
 * generated from its document refuse anything more). The counts are in X-Events-Accepted and X-Events-Rejected.
 */
@ApiSchema({ name: 'EventsResponse' })
export class EventsResponseView {
  @ApiProperty({ type: 'integer', example: 200, description: 'The HTTP status, repeated' })
  status!: number;

  @ApiProperty({ example: 'OK', description: 'OK, or what is wrong (for 422: the first reasons, each with its event index)' })
  message!: string;
}
