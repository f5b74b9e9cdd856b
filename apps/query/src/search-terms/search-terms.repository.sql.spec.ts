import { EngagementSpans } from '../analytics/engagement-spans';
import { DimensionRepository } from '../analytics/dimension.repository';
import { join } from 'node:path';
import { EngagementRawRepository } from '../analytics/engagement-raw.repository';
import { EngagementRepository } from '../analytics/engagement.repository';
import type { AppConfig } from '@app/config';
import { FIXED_NOW, analyticsConfig, computingCache, immediateSlots, termsCriteriaOf } from '../../../../test/support/analytics-fakes';
import { ANY_ROW, describeSqlSnapshot, type SqlCase } from '../../../../test/support/sql-snapshot';
import { ExportSearchTermsHandler, SearchTermsHandler } from './search-terms.handler';
import { ExportSearchTermsQuery, SearchTermsQuery } from './search-terms.query';
import { SearchTermsRepository } from './search-terms.repository';

/** GET /search-terms as JSON (SearchTermsHandler: the page, the newest event; the total when the page is empty). */
const list = (name: string, query: Record<string, string>, rows?: SqlCase['rows'], config = analyticsConfig()): SqlCase => ({
  name,
  path: '/search-terms',
  query,
  rows,
  run: (ch) =>
    new SearchTermsHandler(
      new SearchTermsRepository(
        ch.service,
        new EngagementRepository(ch.service, new EngagementRawRepository(ch.service), new EngagementSpans(ch.service), config),
        new DimensionRepository(ch.service, config),
      ),
      computingCache(),
      config,
    ).execute(new SearchTermsQuery(termsCriteriaOf(query))),
});

const HOUR = 3_600_000;
const NOW_HOUR = Math.floor(FIXED_NOW / HOUR) * HOUR;
/**
 * Engagement figures computed ahead (ENGAGEMENT_REFRESH_MS): all hours of the window but the first two and the current
 * one, which are read from the raw tables.
 */
const AHEAD = { ...analyticsConfig(), engagementRefreshMs: 60_000 } as AppConfig;
const aheadRows = (method: string) =>
  method === 'EngagementRepository.plan'
    ? Array.from({ length: 24 - 3 }, (_, i) => ({
        hour_ms: NOW_HOUR - (22 - i) * HOUR,
        // Two passes: the later one computed the last 5 of these hours again.
        version_us: (i < 16 ? NOW_HOUR - 20 * HOUR : NOW_HOUR - HOUR) * 1000 + 7,
      }))
    : [ANY_ROW];

/** GET /search-terms as CSV (ExportSearchTermsHandler: the newest event, the total, the lines). */
const csv = (name: string, query: Record<string, string>): SqlCase => ({
  name,
  path: '/search-terms',
  query: { ...query, format: 'csv' },
  run: (ch) =>
    new ExportSearchTermsHandler(
      new SearchTermsRepository(
        ch.service,
        new EngagementRepository(ch.service, new EngagementRawRepository(ch.service), new EngagementSpans(ch.service), analyticsConfig()),
        new DimensionRepository(ch.service, analyticsConfig()),
      ),
      immediateSlots(),
      analyticsConfig(),
    ).execute(new ExportSearchTermsQuery(termsCriteriaOf({ ...query, format: 'csv' }))),
});

const CASES: SqlCase[] = [
  list('top terms, default window (since=1d), UTC', {}),
  list('top terms, since=1d, Europe/Berlin', { since: '1d', tz: 'Europe/Berlin' }),
  list('top terms, since=7d, UTC', { since: '7d' }),
  list('top terms, since=30d, Europe/Berlin, second page', { since: '30d', tz: 'Europe/Berlin', _start: '20', _end: '40' }),
  list('top terms, from/to whole days, UTC', { from: '2026-03-20', to: '2026-03-27' }),
  list('top terms, from/to whole days, Europe/Berlin (across the switch to summer time)', {
    from: '2026-03-26',
    to: '2026-04-02',
    tz: 'Europe/Berlin',
  }),
  list('top terms, from/to date-times, UTC', { from: '2026-04-01T06:30', to: '2026-04-01T18:00' }),
  list('top terms, language=de', { since: '7d', language: 'de' }),
  list('top terms, with bots', { since: '7d', includeBotTraffic: 'true' }),
  list('top terms, compare=previous', { since: '7d', compare: 'previous' }),
  list('top terms, sort=rising (implies compare), Europe/Berlin, language=de', {
    since: '7d',
    tz: 'Europe/Berlin',
    sort: 'rising',
    language: 'de',
  }),
  list('zero-result terms (hits=false)', { since: '7d', hits: 'false' }),
  list('zero-result terms, handled=true', { since: '7d', hits: 'false', handled: 'true' }),
  list('zero-result terms, handled=false, language=de, with bots, Europe/Berlin', {
    since: '30d',
    tz: 'Europe/Berlin',
    hits: 'false',
    handled: 'false',
    language: 'de',
    includeBotTraffic: 'true',
  }),
  list('a page past the end (no rows: the total is counted apart)', { since: '7d', _start: '1000', _end: '1010' }, (method) =>
    method === 'SearchTermsRepository.terms' ? [] : [ANY_ROW],
  ),
  csv('CSV, top terms, since=7d', { since: '7d' }),
  csv('CSV, zero-result terms, compare=previous, language=de, Europe/Berlin, paged', {
    since: '7d',
    tz: 'Europe/Berlin',
    hits: 'false',
    compare: 'previous',
    language: 'de',
    _start: '0',
    _end: '100',
  }),
  list('engagement=true, since=7d, language=de', { since: '7d', language: 'de', engagement: 'true' }),
  list('sort=no_clicks (implies engagement), since=30d, Europe/Berlin, with bots', {
    since: '30d',
    tz: 'Europe/Berlin',
    sort: 'no_clicks',
    includeBotTraffic: 'true',
  }),
  csv('CSV, engagement=true, compare=previous, since=7d', { since: '7d', compare: 'previous', engagement: 'true' }),
  list('engagement=true computed ahead, since=1d: hours computed ahead and hours read raw', { engagement: 'true' }, aheadRows, AHEAD),
  list('hits=all (every search, last_hits), order=asc, since=7d', { since: '7d', hits: 'all', order: 'asc' }),
  list('zero-result terms with filters=true, tags=mobile AND bf, compare=previous', {
    since: '7d',
    hits: 'false',
    filters: 'true',
    tags: 'mobile AND bf',
    compare: 'previous',
  }),
  csv('CSV, hits=false, filters=true, engagement=true (last_hits and with_filters after count)', {
    since: '7d',
    hits: 'false',
    filters: 'true',
    engagement: 'true',
  }),
];

describeSqlSnapshot('SearchTermsRepository: GET /search-terms', join(__dirname, 'search-terms.repository.sql'), CASES);
