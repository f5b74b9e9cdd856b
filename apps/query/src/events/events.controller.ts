import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Auth, RequirePermission, type AuthContext } from '@app/auth';
import type { IntakeResult } from '@app/intake';
import { SubmitEventsCommand } from './submit-events.command';
import { SubmitEventsDto } from './submit-events.dto';

@Controller('events')
export class EventsController {
  constructor(private readonly commands: CommandBus) {}

  /** 202 `{ accepted, rejected: [{ index, reason }] }`; rejected items are kept in rejected_events. */
  @Post()
  @HttpCode(202)
  @RequirePermission('search:write')
  submit(@Auth() auth: AuthContext, @Body() body: SubmitEventsDto): Promise<IntakeResult> {
    return this.commands.execute(new SubmitEventsCommand(auth.customer, auth.instance, body.events));
  }
}
