import { Readable } from 'node:stream';

/** The header line of the CSV answer (docs/architecture.md, "The analytics contracts"), CRLF included. */
export function csvHeader(compare: boolean, zeroHits: boolean): string {
  const columns = [
    'search_phrase',
    'count',
    ...(compare ? ['previous_count', 'change'] : []),
    ...(zeroHits ? ['handled', 'handlers'] : []),
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
