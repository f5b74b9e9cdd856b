import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AppConfig } from '@app/config';
import { DomainError } from '@app/errors';
import { CustomersRepository } from '@app/auth';
import { AlertConfigRepository, withDefaults } from '../alerts';
import { AlgoliaIndexesRepository, algoliaIndexesProblem, type AlgoliaIndexes } from '../algolia-analytics';
import { WebhookUrlRepository, webhookUrlProblem } from '../webhooks';
import type { ConfigurationView } from './configuration.dto';
import { UpdateConfigurationCommand } from './update-configuration.command';

@CommandHandler(UpdateConfigurationCommand)
export class UpdateConfigurationHandler implements ICommandHandler<UpdateConfigurationCommand> {
  constructor(
    private readonly repository: WebhookUrlRepository,
    private readonly alerts: AlertConfigRepository,
    private readonly config: AppConfig,
    private readonly indexes: AlgoliaIndexesRepository,
    private readonly customers: CustomersRepository,
  ) {}

  async execute({ auth, webhookUrl, alertConfig, algoliaIndexes }: UpdateConfigurationCommand): Promise<ConfigurationView> {
    const allowPrivate = this.config.webhookAllowPrivateNetworks;
    const problem =
      webhookUrlProblem(webhookUrl, allowPrivate) ?? webhookUrlProblem(alertConfig?.url ?? '', allowPrivate, 'alertConfig.url');
    if (problem) {
      throw new DomainError('invalid', problem);
    }
    const indexes = algoliaIndexes && (await this.checkedIndexes(auth.customer, auth.instance, algoliaIndexes));
    const changedBy = `${auth.scheme}:${auth.principal}`;
    await this.repository.saveWebhookUrl(auth.customer, auth.instance, webhookUrl, changedBy);
    if (alertConfig !== undefined) {
      await this.alerts.save(auth.customer, auth.instance, alertConfig && withDefaults(alertConfig), changedBy);
    }
    if (indexes !== undefined) {
      await this.indexes.save(auth.customer, auth.instance, indexes, changedBy);
    }
    return {
      webhookConfig: { url: webhookUrl },
      alertConfig:
        alertConfig === undefined ? await this.alerts.get(auth.customer, auth.instance) : alertConfig && withDefaults(alertConfig),
      algoliaIndexes: indexes ?? (await this.indexes.get(auth.customer, auth.instance)),
    };
  }

  /**
   * The index names as stored (languages in lower case), or a 400 naming what is wrong, or a 409 for a name another
   * instance holds.
   */
  private async checkedIndexes(customer: string, instance: string, sent: AlgoliaIndexes): Promise<AlgoliaIndexes> {
    const problem = algoliaIndexesProblem(sent, (await this.customers.find(customer))?.instances ?? []);
    if (problem) {
      throw new DomainError('invalid', problem);
    }
    const held = (await this.indexes.stored(customer)).filter((r) => r.instance !== instance);
    const taken = Object.keys(sent).find((name) => held.some((r) => Object.hasOwn(r.indexes, name)));
    if (taken !== undefined) {
      throw new DomainError('conflict', `algoliaIndexes.${taken} is held by another instance: an index name reads one instance`);
    }
    return Object.fromEntries(
      Object.entries(sent).map(([name, { language }]) => [name, language === undefined ? {} : { language: language.toLowerCase() }]),
    );
  }
}
