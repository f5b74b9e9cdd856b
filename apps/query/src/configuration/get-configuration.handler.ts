import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { AlertConfigRepository } from '../alerts';
import { AlgoliaIndexesRepository } from '../algolia-analytics';
import { WebhookUrlRepository } from '../webhooks';
import type { ConfigurationView } from './configuration.dto';
import { GetConfigurationQuery } from './get-configuration.query';

@QueryHandler(GetConfigurationQuery)
export class GetConfigurationHandler implements IQueryHandler<GetConfigurationQuery> {
  constructor(
    private readonly repository: WebhookUrlRepository,
    private readonly alerts: AlertConfigRepository,
    private readonly indexes: AlgoliaIndexesRepository,
  ) {}

  async execute({ auth }: GetConfigurationQuery): Promise<ConfigurationView> {
    const [url, alertConfig, algoliaIndexes] = await Promise.all([
      this.repository.webhookUrl(auth.customer, auth.instance),
      this.alerts.get(auth.customer, auth.instance),
      this.indexes.get(auth.customer, auth.instance),
    ]);
    return { webhookConfig: { url }, alertConfig, algoliaIndexes };
  }
}
