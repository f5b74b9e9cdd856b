import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import { Auth, IntakeRateLimit, RequirePermission, type AuthContext } from '@app/auth';
import { IntakeView } from '@app/intake';
import { SubmitEventsCommand } from './submit-events.command';
import { SubmitEventsDto } from './submit-events.dto';
import { EventsEnvelope } from './events-envelope';

@ApiTags('Events')
@Controller('events')
export class EventsController {
  constructor(private readonly commands: CommandBus) {}

  /** 202 `{ accepted, rejected: [{ index, reason }] }`; rejected items are kept in rejected_events. */
  @Post()
  @HttpCode(202)
  @ApiOperation({
    operationId: 'submitEvents',
    summary: 'Submit search events, clicks and conversions',
    description:
      'Each event is validated on its own: valid ones are stored exactly once (also when the request is retried), ' +
      'bad ones are rejected with their index and reason and kept in rejected_events. Items with `type` click or ' +
      'conversion are what shoppers did after a search (its `id` as `searchId`); counts and indexes are over the ' +
      'whole request. A 503 of a request mixing both may leave one part stored: a retry with the same ids completes ' +
      'it exactly; without ids, interactions are deduplicated by their identity only (send `ts`).',
  })
  @RequirePermission('search:write')
  @IntakeRateLimit()
  @ApiBody({ type: SubmitEventsDto })
  @ApiAcceptedResponse({ type: IntakeView, description: 'Accepted and rejected items' })
  submit(@Auth() auth: AuthContext, @EventsEnvelope() events: unknown[]): Promise<IntakeView> {
    return this.commands.execute(new SubmitEventsCommand(auth.customer, auth.instance, events));
  }
}
