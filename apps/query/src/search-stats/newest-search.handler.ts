import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { AppConfig } from '@app/config';
import { filterOf } from '../analytics/analytics-scope';
import { AnswerCache } from '../analytics/answer-cache';
import { newestIso, resolveWindow } from '../analytics/window';
import { SearchStatsRepository } from './search-stats.repository';
import { NewestSearchQuery } from './newest-search.query';

/**
 * NewestSearchQuery: the hourly totals of the retention (the rows GET /search-stats reads for its series, with the
 * newest search of each hour), not its distinct users or terms; cached and run in the customer's slots as every
 * analytics answer (AnswerCache).
 */
@QueryHandler(NewestSearchQuery)
export class NewestSearchHandler implements IQueryHandler<NewestSearchQuery> {
  constructor(
    private readonly repository: SearchStatsRepository,
    private readonly cache: AnswerCache,
    private readonly config: AppConfig,
  ) {}

  async execute({ filter }: NewestSearchQuery): Promise<string | undefined> {
    const days = this.config.retentionDays;
    const window = resolveWindow({ since: `${days}d` }, Date.now(), days);
    const f = filterOf(filter);
    const { updatedAt } = await this.cache.get(f, ['newest-search', f, window], async () => ({
      updatedAt: newestIso((await this.repository.hours(f, window)).map((h) => h.newest)),
    }));
    return updatedAt;
  }
}
