import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { AppConfig } from '@app/config';
import { filterOf, type AnalyticsScope } from '../analytics/analytics-scope';
import { AnswerCache } from '../analytics/answer-cache';
import { emptyCounts, engagementFields, positionsView } from '../analytics/engagement';
import { statusOf } from '../analytics/search-term-status.dto';
import { bucketBounds, defaultInterval, foldIntoBuckets, isoInZone, resolveWindow, newestIso } from '../analytics/window';
import { TermDetailRepository, termNotFound } from './term-detail.repository';
import { TermDetailQuery, type TermDetail } from './term-detail.query';

const MAX_VARIANTS = 10;
const MAX_FILTERS = 10;

/** GET /search-terms/{id}: counts, series, spellings and status of one term; cached (AnswerCache). */
@QueryHandler(TermDetailQuery)
export class TermDetailHandler implements IQueryHandler<TermDetailQuery> {
  constructor(
    private readonly repository: TermDetailRepository,
    private readonly cache: AnswerCache,
    private readonly config: AppConfig,
  ) {}

  /** The engagement fields of the phrase, its clicks per position and its most clicked objects. */
  private async engagement(scope: AnalyticsScope, phrase: string) {
    const { counts, positions, objects } = await this.repository.engagement.term(scope, scope.window, phrase);
    return {
      ...engagementFields(counts ?? emptyCounts()),
      positions: positionsView(positions),
      objects,
    };
  }

  execute({ id, criteria: c, interval: asked, engagement, tags }: TermDetailQuery): Promise<TermDetail> {
    const window = resolveWindow(c.window, Date.now(), this.config.retentionDays);
    const interval = asked ?? defaultInterval(window);
    const bounds = bucketBounds(window, interval);
    const scope = { ...filterOf(c), window };
    const key = ['term', id, scope, interval, ...(engagement ? ['engagement'] : []), ...(tags ? [tags] : [])] as const;
    return this.cache.get(scope, key, async () => {
      const hours = await this.repository.hours(scope, id, tags);
      if (hours.length === 0) {
        throw termNotFound(id);
      }
      const phrase = hours[0].phrase;
      const variants = await this.repository.variants(scope, id, MAX_VARIANTS);
      const { handlers, unhandled } = await this.repository.handlers(scope, phrase);
      const filters = await this.repository.filters(scope, id, MAX_FILTERS, tags);
      const series = foldIntoBuckets(bounds, hours, ['count', 'zero_hit_count']);
      return {
        view: {
          id,
          search_phrase: phrase,
          count: hours.reduce((sum, h) => sum + h.count, 0),
          zero_hit_count: hours.reduce((sum, h) => sum + h.zero_hit_count, 0),
          series: series.map((b) => ({ start: isoInZone(b.start, window.tz), count: b.count, zero_hit_count: b.zero_hit_count })),
          variants,
          status: statusOf(handlers, unhandled),
          filters,
          ...(engagement ? await this.engagement(scope, phrase) : {}),
        },
        // With tags the rows keep no newest time: no X-Data-Updated-At.
        updatedAt: tags ? undefined : newestIso(hours.map((h) => h.newest)),
      };
    });
  }
}
