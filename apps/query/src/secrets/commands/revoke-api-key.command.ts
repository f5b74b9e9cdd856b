import { Command } from '@nestjs/cqrs';

export class RevokeApiKeyCommand extends Command<void> {
  constructor(
    readonly customer: string,
    readonly id: string,
  ) {
    super();
  }
}
