import { EngagementSpans } from '../analytics/engagement-spans';
import { DimensionRepository } from '../analytics/dimension.repository';
import { join } from 'node:path';
import type { AppConfig } from '@app/config';
import { EngagementRawRepository } from '../analytics/engagement-raw.repository';
import { EngagementRepository } from '../analytics/engagement.repository';
import { FIXED_NOW, analyticsConfig, computingCache, detailQueryOf } from '../../../../test/support/analytics-fakes';
import { ANY_ROW, describeSqlSnapshot, type SqlCase } from '../../../../test/support/sql-snapshot';
import { TermDetailHandler } from './term-detail.handler';
import { TermDetailRepository } from './term-detail.repository';

/** A term id as GET /search-terms gives it (any 32 hex digits do: the SQL only carries it). */
const ID = '892e95f4685a6d36bdb06f63b12becbb';

const HOUR = 3_600_000;
const NOW_HOUR = Math.floor(FIXED_NOW / HOUR) * HOUR;
/** Engagement figures computed ahead (ENGAGEMENT_REFRESH_MS): every hour of the window but the current one. */
const AHEAD = { ...analyticsConfig(), engagementRefreshMs: 60_000 } as AppConfig;
const aheadRows = (method: string) =>
  method === 'EngagementRepository.plan'
    ? Array.from({ length: 23 }, (_, i) => ({ hour_ms: NOW_HOUR - (23 - i) * HOUR, version_us: (NOW_HOUR - HOUR) * 1000 + 7 }))
    : [ANY_ROW];

/** GET /search-terms/{id} (TermDetailHandler: the hours, the spellings, the handlers). */
const detail = (name: string, query: Record<string, string>, rows?: SqlCase['rows'], config: AppConfig = analyticsConfig()): SqlCase => ({
  name,
  path: `/search-terms/${ID}`,
  query,
  rows,
  run: (ch) =>
    new TermDetailHandler(
      new TermDetailRepository(
        ch.service,
        new EngagementRepository(ch.service, new EngagementRawRepository(ch.service), new EngagementSpans(ch.service), config),
        new DimensionRepository(ch.service, config),
      ),
      computingCache(),
      config,
    ).execute(detailQueryOf(ID, query)),
});

const CASES: SqlCase[] = [
  detail('default window (since=1d), UTC', {}),
  detail('since=7d, Europe/Berlin', { since: '7d', tz: 'Europe/Berlin' }),
  detail('since=30d, interval=day', { since: '30d', interval: 'day' }),
  detail('from/to whole days, UTC', { from: '2026-03-20', to: '2026-03-27' }),
  detail('from/to whole days, Europe/Berlin (across the switch to summer time)', {
    from: '2026-03-26',
    to: '2026-04-02',
    tz: 'Europe/Berlin',
  }),
  detail('language=de', { since: '7d', language: 'de' }),
  detail('with bots, language=de, Europe/Berlin', { since: '30d', tz: 'Europe/Berlin', language: 'de', includeBotTraffic: 'true' }),
  detail('engagement=true, since=7d, language=de', { since: '7d', language: 'de', engagement: 'true' }),
  detail(
    'engagement=true computed ahead, since=1d: hours computed ahead and the current hour read raw',
    { engagement: 'true' },
    aheadRows,
    AHEAD,
  ),
  detail('tags=mobile OR bf, since=7d', { since: '7d', tags: 'mobile OR bf' }),
];

describeSqlSnapshot('TermDetailRepository: GET /search-terms/{id}', join(__dirname, 'term-detail.repository.sql'), CASES);
