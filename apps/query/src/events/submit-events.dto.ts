import { ArrayMaxSize, IsArray } from 'class-validator';
import { MAX_EVENTS_PER_REQUEST } from '@app/contracts';

/**
 * The envelope only: items are validated one by one by the intake, so one bad item is rejected with its
 * index instead of failing the request.
 */
export class SubmitEventsDto {
  @IsArray()
  @ArrayMaxSize(MAX_EVENTS_PER_REQUEST)
  events!: unknown[];
}
