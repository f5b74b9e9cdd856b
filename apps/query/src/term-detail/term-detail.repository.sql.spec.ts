import { join } from 'node:path';
import { EngagementRepository } from '../analytics/engagement.repository';
import { analyticsConfig, computingCache, detailQueryOf } from '../../../../test/support/analytics-fakes';
import { describeSqlSnapshot, type SqlCase } from '../../../../test/support/sql-snapshot';
import { TermDetailHandler } from './term-detail.handler';
import { TermDetailRepository } from './term-detail.repository';

/** A term id as GET /search-terms gives it (any 32 hex digits do: the SQL only carries it). */
const ID = '892e95f4685a6d36bdb06f63b12becbb';

/** GET /search-terms/{id} (TermDetailHandler: the hours, the spellings, the handlers). */
const detail = (name: string, query: Record<string, string>): SqlCase => ({
  name,
  path: `/search-terms/${ID}`,
  query,
  run: (ch) =>
    new TermDetailHandler(
      new TermDetailRepository(ch.service, new EngagementRepository(ch.service, analyticsConfig())),
      computingCache(),
      analyticsConfig(),
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
];

describeSqlSnapshot('TermDetailRepository: GET /search-terms/{id}', join(__dirname, 'term-detail.repository.sql'), CASES);
