import { Injectable } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { BotDetector, rejectedHttpItem, validateSearchEvent, type RejectedEventRow, type SearchEventRow, type ValidationContext } from '@app/contracts';

export interface ValidatedBatch {
  rows: SearchEventRow[];
  /** Request index of each accepted row. */
  indexes: number[];
  rejected: RejectedEventRow[];
  /** Index in the request and reason of each rejected item, for the 202 answer. */
  reasons: Array<{ index: number; reason: string }>;
}

/** Validates items one by one, so one bad item is rejected with its index instead of failing the batch. */
@Injectable()
export class SearchEventValidator {
  readonly bots = new BotDetector();

  constructor(private readonly config: AppConfig) {}

  context(extra: Omit<ValidationContext, 'retentionDays' | 'bots' | 'now'> & { now?: number }): ValidationContext {
    return { now: Date.now(), retentionDays: this.config.retentionDays, bots: this.bots, ...extra };
  }

  validateHttp(customer: string, instance: string, items: readonly unknown[]): ValidatedBatch {
    const ctx = this.context({ source: 'http', customer, instance });
    const batch: ValidatedBatch = { rows: [], indexes: [], rejected: [], reasons: [] };
    items.forEach((item, index) => {
      const result = validateSearchEvent(item, ctx);
      if (result.ok) {
        batch.rows.push(result.row);
        batch.indexes.push(index);
        return;
      }
      batch.reasons.push({ index, reason: result.reason });
      batch.rejected.push(rejectedHttpItem(customer, instance, 'search-event', index, item, result.reason, ctx.now));
    });
    return batch;
  }
}
