import { Command } from '@nestjs/cqrs';
import type { AuthContext } from '@app/auth';
import type { ConfigurationView } from './configuration.dto';

export class UpdateConfigurationCommand extends Command<ConfigurationView> {
  constructor(
    readonly auth: AuthContext,
    readonly webhookUrl: string,
  ) {
    super();
  }
}
