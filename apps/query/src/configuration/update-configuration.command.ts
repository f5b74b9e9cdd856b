import { Command } from '@nestjs/cqrs';
import type { AuthContext } from '@app/auth';
import type { AlertConfigDto } from '../alerts';
import type { AlgoliaIndexes } from '../algolia-analytics';
import type { ConfigurationView } from './configuration.dto';

export class UpdateConfigurationCommand extends Command<ConfigurationView> {
  constructor(
    readonly auth: AuthContext,
    readonly webhookUrl: string,
    /** undefined: keep the stored alert configuration; null: alerts off. */
    readonly alertConfig: AlertConfigDto | null | undefined,
    /** undefined: keep the stored index names. */
    readonly algoliaIndexes?: AlgoliaIndexes,
  ) {
    super();
  }
}
