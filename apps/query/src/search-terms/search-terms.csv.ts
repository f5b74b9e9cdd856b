import { Readable } from 'node:stream';
import type { TermsRequest } from './search-terms.repository';
import { hasLastHits } from './term-dimensions-sql';

/** The engagement columns (engagement=true), in the contract's order; revenue as `CUR:amount` joined by `|`. */
export const ENGAGEMENT_CSV_COLUMNS = [
  'tracked_searches',
  'clicked_searches',
  'click_through_rate',
  'clicks',
  'average_click_position',
  'converted_searches',
  'conversion_rate',
  'revenue',
  'added_to_cart_searches',
  'add_to_cart_rate',
  'purchased_searches',
  'purchase_rate',
  'purchase_revenue',
];

/** The header line of the CSV answer (docs/architecture.md, "The analytics contracts"), CRLF included. */
export function csvHeader(r: TermsRequest): string {
  const columns = [
    'search_phrase',
    'count',
    ...(hasLastHits(r) ? ['last_hits'] : []),
    ...(r.withFilters ? ['with_filters'] : []),
    ...(r.previous ? ['previous_count', 'change'] : []),
    ...(r.zeroHits ? ['handled', 'handlers'] : []),
    ...(r.engagement ? ENGAGEMENT_CSV_COLUMNS : []),
  ];
  return `${columns.join(',')}\r\n`;
}

/**
 * The header, then the lines as storage writes them (SearchTermsRepository.csvLines). Destroying the answer (a
 * client that leaves) ends the iteration, which destroys `lines` too.
 */
export function csvAnswer(header: string, lines: Readable): Readable {
  return Readable.from(
    (async function* () {
      yield Buffer.from(header);
      yield* lines;
    })(),
    { objectMode: false },
  );
}
