import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EventIntake, type IntakeResult } from '@app/events';
import { SubmitEventsCommand } from './submit-events.command';

/** Awaited end to end: the answer means the accepted events are durable (embedded) or acknowledged (Kafka). */
@CommandHandler(SubmitEventsCommand)
export class SubmitEventsHandler implements ICommandHandler<SubmitEventsCommand> {
  constructor(private readonly intake: EventIntake) {}

  execute({ customer, instance, events }: SubmitEventsCommand): Promise<IntakeResult> {
    return this.intake.submit(customer, instance, events);
  }
}
