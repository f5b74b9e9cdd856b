import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { IntakeService, type IntakeView } from '@app/intake';
import { SubmitEventsCommand } from './submit-events.command';

/** Awaited end to end: the answer means the accepted events are durable (embedded) or acknowledged (Kafka). */
@CommandHandler(SubmitEventsCommand)
export class SubmitEventsHandler implements ICommandHandler<SubmitEventsCommand> {
  constructor(private readonly intake: IntakeService) {}

  execute({ customer, instance, events }: SubmitEventsCommand): Promise<IntakeView> {
    return this.intake.submitEvents(customer, instance, events);
  }
}
