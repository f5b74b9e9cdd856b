import { ArrayMaxSize, IsArray } from 'class-validator';
import { ApiProperty } from '@nestjs/swagger';
import { MAX_EVENTS_PER_REQUEST } from '@app/contracts';

/**
 * The envelope only: items are validated one by one by the intake, so one bad item is rejected with its
 * index instead of failing the request.
 */
export class SubmitEventsDto {
  @ApiProperty({
    type: 'array',
    items: { type: 'object' },
    maxItems: MAX_EVENTS_PER_REQUEST,
    description: '{ phrase, language, hits, id?, ts?, bot?, userAgent?, sessionId? }',
  })
  @IsArray()
  @ArrayMaxSize(MAX_EVENTS_PER_REQUEST)
  events!: unknown[];
}
