import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { BOOST_FIELDS, type BoostField } from '@app/contracts';
import { DocumentStatsRepository, type FieldStats } from './document-stats.repository';
import { CheckDataQuery } from './check-data.query';
import type { CheckReason, FieldCheck, RankingMixView } from './ranking-mix.view';

/**
 * The three checks per boost field, reasons always in this order (clients match the strings exactly):
 * - "Low amount of data": fewer than 50 % of the documents have a value (exactly 50 % is enough; no documents is low);
 * - "Invalid boosting data": a value outside [0, 1] (0 and 1 are valid);
 * - "No ranking mix data.": all values identical (one value, or none, gives no signal).
 */
export function checkField(stats: FieldStats, documents: number): FieldCheck {
  const reasons: CheckReason[] = [];
  if (documents === 0 || stats.withData * 2 < documents) {
    reasons.push('Low amount of data');
  }
  if (stats.outOfRange > 0) {
    reasons.push('Invalid boosting data');
  }
  if (stats.withData === 0 || stats.min === stats.max) {
    reasons.push('No ranking mix data.');
  }
  return reasons.length === 0 ? { result: true } : { result: false, reasons };
}

@QueryHandler(CheckDataQuery)
export class CheckDataHandler implements IQueryHandler<CheckDataQuery> {
  constructor(private readonly documents: DocumentStatsRepository) {}

  async execute({ customer, instance }: CheckDataQuery): Promise<RankingMixView> {
    const stats = await this.documents.stats(customer, instance);
    return Object.fromEntries(BOOST_FIELDS.map((f) => [f, checkField(stats.fields[f], stats.documents)])) as Record<BoostField, FieldCheck>;
  }
}
