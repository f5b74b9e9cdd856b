import { Command } from '@nestjs/cqrs';
import type { IntakeResult } from '@app/intake';

export class SubmitEventsCommand extends Command<IntakeResult> {
  constructor(
    readonly customer: string,
    readonly instance: string,
    readonly events: readonly unknown[],
  ) {
    super();
  }
}
