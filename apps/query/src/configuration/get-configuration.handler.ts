import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { WebhookUrlRepository } from '../webhooks';
import type { ConfigurationView } from './configuration.dto';
import { GetConfigurationQuery } from './get-configuration.query';

@QueryHandler(GetConfigurationQuery)
export class GetConfigurationHandler implements IQueryHandler<GetConfigurationQuery> {
  constructor(private readonly repository: WebhookUrlRepository) {}

  async execute({ auth }: GetConfigurationQuery): Promise<ConfigurationView> {
    return { webhookConfig: { url: await this.repository.webhookUrl(auth.customer, auth.instance) } };
  }
}
