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
