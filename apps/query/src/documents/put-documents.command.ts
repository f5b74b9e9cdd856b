import { Command } from '@nestjs/cqrs';
import type { IntakeResult } from '@app/intake';

export class PutDocumentsCommand extends Command<IntakeResult> {
  constructor(
    readonly customer: string,
    readonly instance: string,
    readonly documents: readonly unknown[],
  ) {
    super();
  }
}
