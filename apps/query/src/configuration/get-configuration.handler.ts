import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { ConfigurationView } from './configuration.dto';
import { GetConfigurationQuery } from './get-configuration.query';
import { InstanceConfigRepository } from './instance-config.repository';

@QueryHandler(GetConfigurationQuery)
export class GetConfigurationHandler implements IQueryHandler<GetConfigurationQuery> {
  constructor(private readonly repository: InstanceConfigRepository) {}

  async execute({ customer, instance }: GetConfigurationQuery): Promise<ConfigurationView> {
    return { webhookConfig: { url: await this.repository.webhookUrl(customer, instance) } };
  }
}
