/**
 * Stand-ins the analytics handler specs and SQL snapshots share: a fixed clock, a cache that always computes, slots
 * that run at once, a configuration with the retention, and each request's query as its controller builds it (the
 * query string through the app's ValidationPipe rules, then the query class's own factory).
 */
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import type { AuthContext } from '@app/auth';
import type { AppConfig } from '@app/config';
import type { AnalyticsSlots } from '../../apps/query/src/analytics/analytics-slots';
import type { AnswerCache } from '../../apps/query/src/analytics/answer-cache';
import { SearchStatsDto } from '../../apps/query/src/search-stats/search-stats.dto';
import { SearchStatsQuery } from '../../apps/query/src/search-stats/search-stats.query';
import { SearchTermsDto } from '../../apps/query/src/search-terms/search-terms.dto';
import { searchTermsCriteria, type SearchTermsCriteria } from '../../apps/query/src/search-terms/search-terms.query';
import { TermDetailDto } from '../../apps/query/src/term-detail/term-detail.dto';
import { TermDetailQuery } from '../../apps/query/src/term-detail/term-detail.query';

/** The `now` of every case: a Thursday 10:20 UTC, four days after Berlin's switch to summer time (2026-03-29). */
export const FIXED_NOW = Date.parse('2026-04-02T10:20:00.000Z');
export const RETENTION_DAYS = 400;
/** The credential of every case. */
export const CUSTOMER = 'acme';
export const INSTANCE = 'shop';
const AUTH = { customer: CUSTOMER, instance: INSTANCE } as AuthContext;

/** Date.now() returns `now` in each test of the enclosing describe. */
export function fixedClock(now = FIXED_NOW): void {
  beforeEach(() => jest.spyOn(Date, 'now').mockReturnValue(now));
  afterEach(() => jest.restoreAllMocks());
}

/** An AnswerCache that always computes (no cache, no slot). */
export function computingCache(): AnswerCache {
  return { get: (_scope: unknown, _key: unknown, compute: () => Promise<object>) => compute() } as unknown as AnswerCache;
}

/** AnalyticsSlots that run the work at once. */
export function immediateSlots(): AnalyticsSlots {
  return { run: (_customer: string, work: () => Promise<unknown>) => work() } as unknown as AnalyticsSlots;
}

export function analyticsConfig(retentionDays = RETENTION_DAYS): AppConfig {
  return { retentionDays } as AppConfig;
}

/** A query string as the app's ValidationPipe turns it into its DTO (defaults applied); a bad one throws. */
function requestDto<T extends object>(type: new () => T, query: Record<string, string>): T {
  const dto = plainToInstance(type, query);
  const errors = validateSync(dto, { whitelist: true, forbidNonWhitelisted: true });
  if (errors.length > 0) {
    throw new Error(`not a valid query: ${errors.map((e) => Object.values(e.constraints ?? {}).join(', ')).join('; ')}`);
  }
  return dto;
}

/** The criteria of GET /search-terms with this query string (`format=csv` for the CSV export). */
export function termsCriteriaOf(query: Record<string, string>): SearchTermsCriteria {
  return searchTermsCriteria(AUTH, requestDto(SearchTermsDto, query), query.format === 'csv', query);
}

/** The query of GET /search-stats with this query string. */
export function statsQueryOf(query: Record<string, string>): SearchStatsQuery {
  return SearchStatsQuery.of(AUTH, requestDto(SearchStatsDto, query));
}

/** The query of GET /search-terms/{id} with this query string. */
export function detailQueryOf(id: string, query: Record<string, string>): TermDetailQuery {
  return TermDetailQuery.of(id, AUTH, requestDto(TermDetailDto, query));
}
