import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { AppConfig } from '@app/config';
import { MAX_EXPORT_ROWS } from '../common/csv';
import { AnalyticsSlots } from '../analytics/analytics-slots';
import { resolveWindow } from '../analytics/window';
import type { Breakdown, SearchBreakdownEntryView } from './search-breakdown.dto';
import { SearchBreakdownRepository, type BreakdownRow } from './search-breakdown.repository';
import { SearchBreakdownQuery, type SearchBreakdownPage } from './search-breakdown.query';

/** An entry's key by the dimension: the rollup keeps every key in attribute, operator and value (0027). */
function key(by: Breakdown, r: BreakdownRow): Partial<SearchBreakdownEntryView> {
  switch (by) {
    case 'filter_attribute':
      return { attribute: r.attribute };
    case 'filter_value':
      return { attribute: r.attribute, operator: r.operator, value: r.value };
    case 'filter_set':
      return { filters: (JSON.parse(r.value) as string[][]).map(([attribute, operator, value]) => ({ attribute, operator, value })) };
    case 'country':
      return { country: r.value };
    case 'tag':
      return { tag: r.value };
  }
}

/** GET /search-breakdown: one dimension of the window's searches, a page of it (docs/architecture.md). */
@QueryHandler(SearchBreakdownQuery)
export class SearchBreakdownHandler implements IQueryHandler<SearchBreakdownQuery> {
  constructor(
    private readonly repository: SearchBreakdownRepository,
    private readonly slots: AnalyticsSlots,
    private readonly config: AppConfig,
  ) {}

  async execute({ criteria: c }: SearchBreakdownQuery): Promise<SearchBreakdownPage> {
    const window = resolveWindow(c.window, Date.now(), this.config.retentionDays);
    const limit = c.end === undefined ? MAX_EXPORT_ROWS : c.end - c.start;
    // In one of the customer's analytics slots, as every analytics answer (docs/security.md).
    const { rows, total } = await this.slots.run(c.customer, () => this.repository.page(c, window, limit));
    return {
      total,
      items: rows.map((r) => ({
        ...key(c.by, r),
        searches: r.searches,
        zero_hit_searches: r.zero_hit_searches,
        zero_hit_rate: r.zero_hit_searches / r.searches,
        users: r.users,
      })),
    };
  }
}
