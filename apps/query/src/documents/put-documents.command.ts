import { Command } from '@nestjs/cqrs';
import type { IntakeView } from '@app/intake';

export class PutDocumentsCommand extends Command<IntakeView> {
  constructor(
    readonly customer: string,
    readonly instance: string,
    readonly documents: readonly unknown[],
  ) {
    super();
  }
}
