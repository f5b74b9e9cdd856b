import { Query } from '@nestjs/cqrs';
import type { RankingMixCheck } from './ranking-mix.view';

export class CheckDataQuery extends Query<RankingMixCheck> {
  constructor(
    readonly customer: string,
    readonly instance: string,
  ) {
    super();
  }
}
