import { Command } from '@nestjs/cqrs';
import type { IntakeView } from '@app/intake';

export class SubmitEventsCommand extends Command<IntakeView> {
  constructor(
    readonly customer: string,
    readonly instance: string,
    readonly events: readonly unknown[],
  ) {
    super();
  }
}
