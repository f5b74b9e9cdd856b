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

/**
 * The SQL of one CSV line per row of the list (the columns of csvHeader), CR included (the LF is TSVRaw's). A text
 * field that begins with `=`, `+`, `-`, `@`, a tab or a CR gets a `'` before it, so that a spreadsheet shows it as
 * text instead of running it as a formula (CSV injection); then a field is quoted, inner quotes doubled, only when it
 * holds a comma, quote, CR or LF. Numbers are left as they are (a negative `change` stays a number); `change` is
 * empty when previous_count is 0 (ClickHouse writes a Float64 with the shortest digits that read back to it, as JSON
 * does). `handled`: the condition of a handled row (zero-result lists).
 */
export function csvLineSql(r: TermsRequest, handled: string): string {
  const inert = (field: string) => `if(match(${field}, '^[=+@\\t\\r-]'), concat('\\'', ${field}), ${field})`;
  const quoted = (field: string) => `if(match(${field}, '[,"\\r\\n]'), concat('"', replaceAll(${field}, '"', '""'), '"'), ${field})`;
  const text = (field: string) => quoted(inert(field));
  const fields = [text('phrase'), 'toString(count)'];
  if (hasLastHits(r)) {
    fields.push('toString(last_hits)');
  }
  if (r.withFilters) {
    fields.push('toString(with_filters)');
  }
  if (r.previous) {
    fields.push('toString(previous_count)', "if(previous_count = 0, '', toString(count / previous_count - 1))");
  }
  if (r.zeroHits) {
    fields.push(`if(${handled}, 'true', 'false')`, text("arrayStringConcat(arrayMap(h -> concat(h.1, ':', h.2), handlers), '|')"));
  }
  if (r.engagement) {
    // As the JSON answer: rates and the mean position empty on a zero denominator, currencies ascending.
    const ratio = (part: string, whole: string) => `if(${whole} = 0, '', toString(${part} / ${whole}))`;
    fields.push(
      'toString(tracked)',
      'toString(clicked)',
      ratio('clicked', 'tracked'),
      'toString(clicks_n)',
      ratio('pos_sum', 'clicks_n'),
      'toString(converted)',
      ratio('converted', 'tracked'),
      "arrayStringConcat(arrayMap((c, v) -> concat(c, ':', v), rev_cur, rev_val), '|')",
      'toString(carted)',
      ratio('carted', 'tracked'),
      'toString(purchased)',
      ratio('purchased', 'tracked'),
      "arrayStringConcat(arrayMap((c, v) -> concat(c, ':', v), pur_cur, pur_val), '|')",
    );
  }
  return `concat(${fields.join(", ',', ")}, '\\r')`;
}
