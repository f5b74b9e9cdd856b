import { stringify } from 'csv-stringify';
import { Readable } from 'node:stream';
import type { SearchTermView } from './search-terms.dto';

/** The columns of the CSV answer (DESIGN.md section 10), in order. */
export function csvColumns(compare: boolean, zeroHits: boolean): string[] {
  return ['search_phrase', 'count', ...(compare ? ['previous_count', 'change'] : []), ...(zeroHits ? ['handled', 'handlers'] : [])];
}

function record(item: SearchTermView, compare: boolean, zeroHits: boolean): unknown[] {
  const fields: unknown[] = [item.search_phrase, item.count];
  if (compare) fields.push(item.previous_count, item.change);
  if (zeroHits) fields.push(item.status?.handled, item.status?.handlers.map((h) => `${h.type}:${h.id}`).join('|'));
  return fields;
}

/**
 * The rows as CSV, written as they are read: a header line, CRLF after every line, no byte-order mark; a field
 * is quoted (inner quotes doubled) only when it holds a comma, quote, CR or LF; booleans true/false; null empty.
 */
export function searchTermsCsv(items: AsyncIterable<SearchTermView>, compare: boolean, zeroHits: boolean): Readable {
  const csv = stringify({
    header: true,
    columns: csvColumns(compare, zeroHits),
    record_delimiter: 'windows',
    // csv-stringify quotes the delimiter, quotes and the record delimiter (CRLF), not a lone CR or LF.
    quoted_match: /[\r\n]/,
    cast: { boolean: (b) => String(b), number: (n) => String(n) },
  });
  Readable.from(items)
    .map((item: SearchTermView) => record(item, compare, zeroHits))
    .on('error', (err) => csv.destroy(err))
    .pipe(csv);
  return csv;
}
