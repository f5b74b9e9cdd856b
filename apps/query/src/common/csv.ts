import { BadRequestException } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import Negotiator from 'negotiator';

/**
 * The longest Accept header negotiated: negotiator's cost grows with the square of a header's length (a quote then
 * commas), so a longer one is refused before it is parsed (docs/security.md). Browsers send under 300 bytes.
 */
export const MAX_ACCEPT_BYTES = 1024;

/** The most rows of a CSV answer without `_start`/`_end` (the whole list). */
export const MAX_EXPORT_ROWS = 100_000;

/**
 * The exclusive end of a list's page: `_end`, except for a CSV answer whose request names neither `_start` nor `_end`,
 * which holds every row up to MAX_EXPORT_ROWS (undefined).
 */
export function pageEnd(q: { _end: number }, csv: boolean, rawQuery: object): number | undefined {
  return !csv || '_start' in rawQuery || '_end' in rawQuery ? q._end : undefined;
}

/** CSV when asked for with format=csv, or with an Accept header preferring text/csv to JSON. */
export function wantsCsv(q: { format?: 'json' | 'csv' }, req: FastifyRequest): boolean {
  const accept = req.headers.accept;
  if (accept !== undefined && Buffer.byteLength(accept) > MAX_ACCEPT_BYTES) {
    throw new BadRequestException(`Accept header is longer than ${MAX_ACCEPT_BYTES} bytes`);
  }
  if (q.format) {
    return q.format === 'csv';
  }
  return new Negotiator(req).mediaType(['application/json', 'text/csv']) === 'text/csv';
}

/**
 * One CSV field as the lists write theirs (docs/architecture.md, "CSV"): text that begins with `=`, `+`, `-`, `@`, a tab
 * or a CR gets a `'` before it (a spreadsheet shows it instead of running it as a formula); then a field holding a
 * comma, quote, CR or LF is quoted, inner quotes doubled. Numbers as JSON writes them.
 */
export function csvField(value: string | number): string {
  if (typeof value === 'number') {
    return String(value);
  }
  const inert = /^[=+@\t\r-]/.test(value) ? `'${value}` : value;
  return /[,"\r\n]/.test(inert) ? `"${inert.replaceAll('"', '""')}"` : inert;
}

/** CSV lines (CRLF) of a header and rows of fields. */
export function csvText(header: readonly string[], rows: ReadonlyArray<ReadonlyArray<string | number>>): string {
  return [header, ...rows].map((fields) => `${fields.map(csvField).join(',')}\r\n`).join('');
}
