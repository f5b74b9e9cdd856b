import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { LRUCache } from 'lru-cache';
import { createHash } from 'node:crypto';
import { AppConfig } from '@app/config';
import { DataVersions } from '@app/intake';
import { SearchTermsRepository } from './search-terms.repository';
import type { SearchTermView } from './search-terms.dto';
import { SearchTermsQuery } from './search-terms.query';

const HOUR = 3_600_000;

/** A stable id for (customer, instance, phrase): the same term keeps its id across requests and windows. */
export function termId(customer: string, instance: string, phrase: string): string {
  return createHash('sha256').update(`${customer}\u0000${instance}\u0000${phrase}`).digest('hex').slice(0, 32);
}

type Answer = { items: SearchTermView[]; total: number };

/**
 * Answers are cached per request and window hour: admin screens repeat the same request, and the embedded engine
 * runs one query at a time. An entry is dropped as soon as this process writes events or entities of the instance
 * (DataVersions) and lives at most SEARCH_TERMS_CACHE_MS otherwise (writes of a separate ingest process).
 */
@QueryHandler(SearchTermsQuery)
export class SearchTermsHandler implements IQueryHandler<SearchTermsQuery> {
  private readonly cache?: LRUCache<string, Answer>;

  constructor(
    private readonly repository: SearchTermsRepository,
    private readonly versions: DataVersions,
    config: AppConfig,
  ) {
    if (config.searchTermsCacheMs > 0) this.cache = new LRUCache<string, Answer>({ max: 5_000, ttl: config.searchTermsCacheMs });
  }

  async execute({ criteria: c }: SearchTermsQuery): Promise<Answer> {
    // One "now" for the whole request: whole hours from the hour of now - since through the current hour.
    const now = Date.now();
    const toHour = Math.floor(now / HOUR) * HOUR;
    const fromHour = Math.floor((now - c.sinceDays * 24 * HOUR) / HOUR) * HOUR;
    const key = JSON.stringify([c, fromHour, this.versions.get(c.customer, c.instance)]);
    const cached = this.cache?.get(key);
    if (cached) return cached;
    const answer = await this.compute(c, fromHour, toHour);
    this.cache?.set(key, answer);
    return answer;
  }

  private async compute(c: SearchTermsQuery['criteria'], fromHour: number, toHour: number): Promise<Answer> {
    const language = c.language?.toLowerCase();
    const { rows, total } = await this.repository.terms({
      customer: c.customer,
      instance: c.instance,
      zeroHits: !c.hits,
      includeBots: c.includeBots,
      language,
      fromHour,
      toHour,
      start: c.start,
      limit: c.end - c.start,
    });
    const handlers = c.hits ? undefined : await this.repository.handlers(c.customer, c.instance, rows.map((r) => r.phrase), language);
    const items = rows.map((r) => {
      const list = handlers?.get(r.phrase) ?? [];
      return {
        id: termId(c.customer, c.instance, r.phrase),
        search_phrase: r.phrase,
        count: r.count,
        status: handlers ? { handled: list.length > 0, handlers: list } : null,
      };
    });
    return { items, total };
  }
}
