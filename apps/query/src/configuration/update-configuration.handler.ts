import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AppConfig } from '@app/config';
import { DomainError } from '@app/errors';
import { WebhookUrlRepository, webhookUrlProblem } from '../webhooks';
import type { ConfigurationView } from './configuration.dto';
import { UpdateConfigurationCommand } from './update-configuration.command';

@CommandHandler(UpdateConfigurationCommand)
export class UpdateConfigurationHandler implements ICommandHandler<UpdateConfigurationCommand> {
  constructor(
    private readonly repository: WebhookUrlRepository,
    private readonly config: AppConfig,
  ) {}

  async execute({ auth, webhookUrl }: UpdateConfigurationCommand): Promise<ConfigurationView> {
    const problem = webhookUrlProblem(webhookUrl, this.config.webhookAllowPrivateNetworks);
    if (problem) {
      throw new DomainError('invalid', problem);
    }
    await this.repository.saveWebhookUrl(auth.customer, auth.instance, webhookUrl, `${auth.scheme}:${auth.principal}`);
    return { webhookConfig: { url: webhookUrl } };
  }
}
