import { Query } from '@nestjs/cqrs';
import type { ConfigurationView } from './configuration.dto';

export class GetConfigurationQuery extends Query<ConfigurationView> {
  constructor(
    readonly customer: string,
    readonly instance: string,
  ) {
    super();
  }
}
