import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { createHash } from 'node:crypto';
import { SearchTermsRepository } from './search-terms.repository';
import type { SearchTermView } from './search-terms.dto';
import { SearchTermsQuery } from './search-terms.query';

const HOUR = 3_600_000;

/** A stable id for (customer, instance, phrase): the same term keeps its id across requests and windows. */
export function termId(customer: string, instance: string, phrase: string): string {
  return createHash('sha256').update(`${customer}\u0000${instance}\u0000${phrase}`).digest('hex').slice(0, 32);
}

@QueryHandler(SearchTermsQuery)
export class SearchTermsHandler implements IQueryHandler<SearchTermsQuery> {
  constructor(private readonly repository: SearchTermsRepository) {}

  async execute({ criteria: c }: SearchTermsQuery): Promise<{ items: SearchTermView[]; total: number }> {
    // One "now" for the whole request: whole hours from the hour of now - since through the current hour.
    const now = Date.now();
    const toHour = Math.floor(now / HOUR) * HOUR;
    const fromHour = Math.floor((now - c.sinceDays * 24 * HOUR) / HOUR) * HOUR;
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
