/** The GET /search-terms requests the query benchmark measures. */
export interface Scenario {
  name: string;
  days: number;
  hits: boolean;
  language?: string;
}

export const SCENARIOS: Scenario[] = [
  { name: 'since=1d', days: 1, hits: true },
  { name: 'since=1d hits=false', days: 1, hits: false },
  { name: 'since=1d language=de', days: 1, hits: true, language: 'de' },
  { name: 'since=7d', days: 7, hits: true },
  { name: 'since=7d hits=false language=de', days: 7, hits: false, language: 'de' },
  { name: 'since=30d', days: 30, hits: true },
  { name: 'since=30d hits=false', days: 30, hits: false },
  { name: 'since=30d language=de', days: 30, hits: true, language: 'de' },
];

export function queryString(s: Scenario): string {
  return `since=${s.days}d&hits=${s.hits}${s.language ? `&language=${s.language}` : ''}`;
}

/**
 * The raw scan the rollups replace, for a scenario: its answer counted per phrase from `search_events` (the table's
 * full name), with the parameters to pass. The query benchmark and the growth benchmark (scale.bench.ts) time it.
 */
export function rawScan(searchEvents: string, s: Scenario): { sql: string; params: Record<string, unknown> } {
  return {
    sql: `SELECT phrase, sum(sign) AS c, count() OVER () AS total FROM ${searchEvents}
         WHERE customer = 'demo' AND instance = 'live' AND ts >= toStartOfHour(now() - toIntervalDay({days:UInt32}))
           AND (hits = 0) = {zero:Bool} AND NOT bot ${s.language ? 'AND language = {language:String}' : ''}
         GROUP BY phrase ORDER BY c DESC, phrase LIMIT 10`,
    params: { days: s.days, zero: !s.hits, language: s.language ?? '' },
  };
}
