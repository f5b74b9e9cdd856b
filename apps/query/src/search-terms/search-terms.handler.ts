import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { LRUCache } from 'lru-cache';
import { AppConfig } from '@app/config';
import { DomainError } from '@app/errors';
import { DataVersions } from '@app/intake';
import { SearchTermsRepository } from './search-terms.repository';
import type { SearchTermView } from './search-terms.dto';
import { SearchTermsQuery, type SearchTermsCriteria } from './search-terms.query';
import { termId } from './term-id';
import { termsWindow, type TermsWindow } from './terms-window';

type Answer = { items: SearchTermView[]; total: number };

/**
 * Answers are cached per request and window hour: admin screens repeat the same request, and the embedded engine
 * runs one query at a time. An entry is dropped as soon as this process writes events or entities of the instance
 * (DataVersions) and lives at most SEARCH_TERMS_CACHE_MS otherwise (writes of a separate ingest process).
 */
@QueryHandler(SearchTermsQuery)
export class SearchTermsHandler implements IQueryHandler<SearchTermsQuery> {
  private readonly cache?: LRUCache<string, Answer>;
  private readonly retentionDays: number;

  constructor(
    private readonly repository: SearchTermsRepository,
    private readonly versions: DataVersions,
    config: AppConfig,
  ) {
    this.retentionDays = config.retentionDays;
    if (config.searchTermsCacheMs > 0) this.cache = new LRUCache<string, Answer>({ max: 5_000, ttl: config.searchTermsCacheMs });
  }

  async execute({ criteria: c }: SearchTermsQuery): Promise<Answer> {
    if (c.sinceDays > this.retentionDays) throw new DomainError('invalid', `since must be at most ${this.retentionDays}d (the retention)`);
    // One "now" for the whole request.
    const window = termsWindow(Date.now(), c.sinceDays);
    const key = JSON.stringify([c, window.from, this.versions.get(c.customer, c.instance)]);
    const cached = this.cache?.get(key);
    if (cached) return cached;
    const answer = await this.compute(c, window);
    this.cache?.set(key, answer);
    return answer;
  }

  private async compute(c: SearchTermsCriteria, window: TermsWindow): Promise<Answer> {
    const language = c.language?.toLowerCase();
    const { customer, instance, zeroHits, includeBots } = c;
    const { rows, total } = await this.repository.terms({
      customer,
      instance,
      zeroHits,
      includeBots,
      language,
      window,
      start: c.start,
      limit: c.end - c.start,
    });
    const handlers = zeroHits
      ? await this.repository.handlers(
          customer,
          instance,
          rows.map((r) => r.phrase),
          language,
        )
      : undefined;
    const items = rows.map((r) => {
      const list = handlers?.get(r.phrase) ?? [];
      return {
        id: termId(customer, instance, r.phrase),
        search_phrase: r.phrase,
        count: r.count,
        status: handlers ? { handled: list.length > 0, handlers: list } : null,
      };
    });
    return { items, total };
  }
}
