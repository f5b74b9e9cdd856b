import { EngagementSpans } from '../analytics/engagement-spans';
import { DimensionRepository } from '../analytics/dimension.repository';
import { join } from 'node:path';
import { EngagementRawRepository } from '../analytics/engagement-raw.repository';
import { EngagementRepository } from '../analytics/engagement.repository';
import { analyticsConfig, computingCache, statsQueryOf } from '../../../../test/support/analytics-fakes';
import { describeSqlSnapshot, type SqlCase } from '../../../../test/support/sql-snapshot';
import { SearchStatsHandler } from './search-stats.handler';
import { SearchStatsRepository } from './search-stats.repository';

/** GET /search-stats (SearchStatsHandler: the hours, the distinct terms, the languages). */
const stats = (name: string, query: Record<string, string>): SqlCase => ({
  name,
  path: '/search-stats',
  query,
  run: (ch) =>
    new SearchStatsHandler(
      new SearchStatsRepository(
        ch.service,
        new EngagementRepository(ch.service, new EngagementRawRepository(ch.service), new EngagementSpans(ch.service), analyticsConfig()),
        new DimensionRepository(ch.service, analyticsConfig()),
      ),
      computingCache(),
      analyticsConfig(),
    ).execute(statsQueryOf(query)),
});

const CASES: SqlCase[] = [
  stats('default window (since=1d), UTC', {}),
  stats('since=1d, Europe/Berlin', { since: '1d', tz: 'Europe/Berlin' }),
  stats('since=7d, UTC, interval=hour', { since: '7d', interval: 'hour' }),
  stats('since=30d, Europe/Berlin', { since: '30d', tz: 'Europe/Berlin' }),
  stats('from/to whole days, UTC', { from: '2026-03-20', to: '2026-03-27' }),
  stats('from/to whole days, Europe/Berlin (across the switch to summer time)', {
    from: '2026-03-26',
    to: '2026-04-02',
    tz: 'Europe/Berlin',
  }),
  stats('language=de (the languages list ignores it)', { since: '7d', language: 'de' }),
  stats('with bots', { since: '7d', includeBotTraffic: 'true' }),
  stats('compare=previous, since=7d', { since: '7d', compare: 'previous' }),
  stats('compare=previous, from/to, Europe/Berlin, language=de, with bots', {
    from: '2026-03-26',
    to: '2026-04-02',
    tz: 'Europe/Berlin',
    compare: 'previous',
    language: 'de',
    includeBotTraffic: 'true',
  }),
  stats('engagement=true, since=7d, interval=day, Europe/Berlin', {
    since: '7d',
    interval: 'day',
    tz: 'Europe/Berlin',
    engagement: 'true',
  }),
  stats('engagement=true, compare=previous, language=de, with bots', {
    since: '7d',
    compare: 'previous',
    language: 'de',
    includeBotTraffic: 'true',
    engagement: 'true',
  }),
  stats('tags=mobile AND bf, compare=previous, language=de', { since: '7d', compare: 'previous', language: 'de', tags: 'mobile AND bf' }),
  stats('tags=mobile OR campaign%3Abf', { since: '1d', tags: 'mobile OR campaign%3Abf' }),
];

describeSqlSnapshot('SearchStatsRepository: GET /search-stats', join(__dirname, 'search-stats.repository.sql'), CASES);
