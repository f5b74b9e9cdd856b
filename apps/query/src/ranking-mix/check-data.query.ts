import { Query } from '@nestjs/cqrs';
import type { RankingMixView } from './ranking-mix.view';

export class CheckDataQuery extends Query<RankingMixView> {
  constructor(
    readonly customer: string,
    readonly instance: string,
  ) {
    super();
  }
}
