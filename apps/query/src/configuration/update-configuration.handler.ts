import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AppConfig } from '@app/config';
import { DomainError } from '@app/errors';
import { AlertConfigRepository, withDefaults } from '../alerts';
import { WebhookUrlRepository, webhookUrlProblem } from '../webhooks';
import type { ConfigurationView } from './configuration.dto';
import { UpdateConfigurationCommand } from './update-configuration.command';

@CommandHandler(UpdateConfigurationCommand)
export class UpdateConfigurationHandler implements ICommandHandler<UpdateConfigurationCommand> {
  constructor(
    private readonly repository: WebhookUrlRepository,
    private readonly alerts: AlertConfigRepository,
    private readonly config: AppConfig,
  ) {}

  async execute({ auth, webhookUrl, alertConfig }: UpdateConfigurationCommand): Promise<ConfigurationView> {
    const allowPrivate = this.config.webhookAllowPrivateNetworks;
    const problem =
      webhookUrlProblem(webhookUrl, allowPrivate) ?? webhookUrlProblem(alertConfig?.url ?? '', allowPrivate, 'alertConfig.url');
    if (problem) {
      throw new DomainError('invalid', problem);
    }
    const changedBy = `${auth.scheme}:${auth.principal}`;
    await this.repository.saveWebhookUrl(auth.customer, auth.instance, webhookUrl, changedBy);
    if (alertConfig !== undefined) {
      await this.alerts.save(auth.customer, auth.instance, alertConfig && withDefaults(alertConfig), changedBy);
    }
    return {
      webhookConfig: { url: webhookUrl },
      alertConfig:
        alertConfig === undefined ? await this.alerts.get(auth.customer, auth.instance) : alertConfig && withDefaults(alertConfig),
    };
  }
}
