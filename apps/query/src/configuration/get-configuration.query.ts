import { Query } from '@nestjs/cqrs';
import type { AuthContext } from '@app/auth';
import type { ConfigurationView } from './configuration.dto';

export class GetConfigurationQuery extends Query<ConfigurationView> {
  constructor(readonly auth: AuthContext) {
    super();
  }
}
