import { Injectable } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { BotDetector, validateSearchEvent, type SearchEventRow, type ValidationContext } from '@app/contracts';
import { validateItems, type ValidatedBatch } from './validate-items';

/** Search-event validation with the service's retention and one bot-verdict cache. */
@Injectable()
export class SearchEventValidator {
  readonly bots = new BotDetector();

  constructor(private readonly config: AppConfig) {}

  context(extra: Omit<ValidationContext, 'retentionDays' | 'bots' | 'now'> & { now?: number }): ValidationContext {
    return { now: Date.now(), retentionDays: this.config.retentionDays, bots: this.bots, ...extra };
  }

  validateHttp(customer: string, instance: string, items: readonly unknown[]): ValidatedBatch<SearchEventRow> {
    const ctx = this.context({ source: 'http', customer, instance });
    return validateItems(customer, instance, 'search-event', items, ctx.now, (item) => validateSearchEvent(item, ctx));
  }
}
