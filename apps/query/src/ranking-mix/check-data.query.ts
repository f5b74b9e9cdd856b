import { Query } from '@nestjs/cqrs';
import type { BoostField } from '@app/contracts';

export type CheckReason = 'Low amount of data' | 'Invalid boosting data' | 'No ranking mix data.';
export type FieldCheck = { result: true } | { result: false; reasons: CheckReason[] };

export class CheckDataQuery extends Query<Record<BoostField, FieldCheck>> {
  constructor(
    readonly customer: string,
    readonly instance: string,
  ) {
    super();
  }
}
