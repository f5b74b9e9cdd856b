import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { AppConfig } from '@app/config';
import { DomainError } from '@app/errors';
import { filterOf, type AnalyticsScope } from '../analytics/analytics-scope';
import { AnalyticsSlots } from '../analytics/analytics-slots';
import { AnswerCache } from '../analytics/answer-cache';
import { engagementFields, positionsView } from '../analytics/engagement';
import { statusOf } from '../analytics/search-term-status.dto';
import { comparedWindow, resolveWindow } from '../analytics/window';
import { csvAnswer, csvHeader } from './search-terms.csv';
import { SearchTermsRepository, type TermRow, type TermsRequest } from './search-terms.repository';
import type { SearchTermView } from './search-terms.dto';
import {
  byEngagement,
  ExportSearchTermsQuery,
  SearchTermsQuery,
  type SearchTermsCriteria,
  type SearchTermsExport,
  type SearchTermsPage,
} from './search-terms.query';
import { termId } from '../analytics/term-id';
import { MAX_EXPORT_ROWS } from '../common/csv';

export { MAX_EXPORT_ROWS };

/** The repository request for the criteria at `now`, or a 400 naming the parameter. */
export function termsRequest(c: SearchTermsCriteria, now: number, retentionDays: number): TermsRequest {
  if (c.handled !== undefined && !c.zeroHits) {
    throw new DomainError('invalid', 'handled is only allowed with hits=false');
  }
  if (byEngagement(c.sort) && c.zeroHits) {
    throw new DomainError(
      'invalid',
      `sort=${c.sort} is only allowed with hits=true or hits=all (a search without results cannot be clicked)`,
    );
  }
  if (c.withFilters && !c.zeroHits) {
    throw new DomainError('invalid', 'filters=true is only allowed with hits=false');
  }
  if (c.order !== undefined && c.sort === 'rising') {
    throw new DomainError('invalid', 'order is not allowed with sort=rising');
  }
  const window = resolveWindow(c.window, now, retentionDays);
  const compare = c.compare || c.sort === 'rising';
  return {
    scope: { ...filterOf(c), window },
    zeroHits: c.zeroHits,
    // Absent rather than false, as engagement: requests without them stay as they were (and so their cache keys).
    ...(c.allHits ? { allHits: true as const } : {}),
    ...(c.order === 'asc' ? { ascending: true as const } : {}),
    ...(c.tags ? { tags: c.tags } : {}),
    ...(c.withFilters ? { withFilters: true as const } : {}),
    previous: compare ? comparedWindow(window, now, retentionDays) : undefined,
    sort: c.sort,
    // Absent rather than false: requests without it stay as they were.
    engagement: c.engagement ? true : undefined,
    handled: c.handled,
    start: c.start,
    limit: c.end === undefined ? MAX_EXPORT_ROWS : c.end - c.start,
  };
}

function view(scope: AnalyticsScope, r: TermRow): SearchTermView {
  const item: SearchTermView = {
    id: termId(scope.customer, scope.instance, r.phrase),
    search_phrase: r.phrase,
    count: r.count,
    status: r.handlers ? statusOf(r.handlers, r.unhandled_languages) : null,
  };
  if (r.last_hits !== undefined) {
    item.last_hits = r.last_hits;
  }
  if (r.with_filters !== undefined) {
    item.with_filters = r.with_filters;
  }
  if (r.previous_count !== undefined) {
    item.previous_count = r.previous_count;
    item.change = r.previous_count === 0 ? null : r.count / r.previous_count - 1;
  }
  return r.engagement
    ? Object.assign(item, engagementFields(r.engagement), r.positions ? { positions: positionsView(r.positions) } : {})
    : item;
}

/** A page of GET /search-terms, from the rollups; cached (AnswerCache). */
@QueryHandler(SearchTermsQuery)
export class SearchTermsHandler implements IQueryHandler<SearchTermsQuery> {
  constructor(
    private readonly repository: SearchTermsRepository,
    private readonly cache: AnswerCache,
    private readonly config: AppConfig,
  ) {}

  execute({ criteria }: SearchTermsQuery): Promise<SearchTermsPage> {
    // One "now" for the whole request (not part of the cache key: the window is).
    const now = Date.now();
    const r = termsRequest(criteria, now, this.config.retentionDays);
    return this.cache.get(r.scope, ['search-terms', r], async () => {
      // Side by side on a server; one after the other in the slot's lane of the embedded engine.
      const [{ rows, total }, updatedAt] = await Promise.all([this.repository.terms(r, now), this.repository.newestEvent(r)]);
      return { items: rows.map((row) => view(r.scope, row)), total, updatedAt };
    });
  }
}

/**
 * GET /search-terms as CSV, streamed from storage; never cached. It holds one of the customer's analytics slots
 * until the answer has been sent (or the client has left).
 */
@QueryHandler(ExportSearchTermsQuery)
export class ExportSearchTermsHandler implements IQueryHandler<ExportSearchTermsQuery> {
  constructor(
    private readonly repository: SearchTermsRepository,
    private readonly slots: AnalyticsSlots,
    private readonly config: AppConfig,
  ) {}

  execute({ criteria }: ExportSearchTermsQuery): Promise<SearchTermsExport> {
    const now = Date.now();
    const r = termsRequest(criteria, now, this.config.retentionDays);
    return this.slots.run(
      r.scope.customer,
      async () => {
        const updatedAt = await this.repository.newestEvent(r);
        const total = await this.repository.total(r, now);
        // Opened before the answer starts: a storage error is still a proper error answer, not a cut-off download.
        const lines = await this.repository.csvLines(r, now);
        return { total, updatedAt, csv: csvAnswer(csvHeader(r), lines) };
      },
      (answer) => answer.csv,
    );
  }
}
