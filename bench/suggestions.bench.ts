/**
 * npm run bench:suggestions: where GET /search-terms/{id}/suggestions computes its distances
 * (docs/decisions/0059-suggestions.md), on the query benchmark's data set (10M events over 30 days; tmp/bench-query), 30 days,
 * one thread, each way 20 times (p50): A, the engine narrows (length, editDistanceUTF8 <= 4) and the process
 * computes the exact distance on what is left (what the service does); B, every phrase with results to the process;
 * C, the engine's damerauLevenshteinDistance (counts bytes: wrong for umlauts, shown for its time). For a term like
 * most (`phrse 77`) and the worst of this data set (`phrase 1234`: all its phrases are `phrase <n>`).
 */
import { Session } from 'chdb';
import { compact, damerauLevenshtein } from '../apps/query/src/term-detail/distance';
import { recordFigures, type Figure } from './figures';
import { quantile, tableRow } from './proc';
import { DATA_DIR, loadDataSet } from './query-app';

const ROUNDS = 20;
const WINDOW = "customer = 'demo' AND instance = 'live' AND zero_hits = 0 AND bot IN [0] AND day >= today() - 30";

function main(): Promise<void> {
  return loadDataSet({ BENCH_SKIP_RAW: '1' }).then(() => {
    const session = new Session(DATA_DIR);
    type Row = { phrase: string };
    const rows = (sql: string) => (JSON.parse(session.query(`${sql} SETTINGS max_threads = 1`, 'JSON')) as { data: Row[] }).data;
    const close = (term: string, phrase: string) =>
      phrase !== term && (compact(phrase) === compact(term) || damerauLevenshtein(phrase, term, 2) !== undefined);
    const within = (term: string, found: Row[]) => found.filter((r) => close(term, r.phrase)).length;
    const lines: string[] = [];
    const figures: Figure[] = [];
    for (const term of ['phrse 77', 'phrase 1234']) {
      const literal = `'${term}'`;
      const grouped = (where: string) =>
        `SELECT phrase, sum(searches) AS n FROM bench.search_phrases_daily WHERE ${WINDOW} ${where} GROUP BY phrase HAVING n > 0`;
      const ways = {
        'A: engine narrows, process decides': () => {
          const found = rows(
            grouped(`AND phrase != ${literal} AND ((abs(toInt64(lengthUTF8(phrase)) - ${Array.from(term).length}) <= 2
              AND editDistanceUTF8(phrase, ${literal}) <= 4) OR replaceRegexpAll(phrase, '[ -]', '') = '${compact(term)}')`),
          );
          return [found.length, within(term, found)];
        },
        'B: every phrase to the process': () => {
          const found = rows(grouped(''));
          return [found.length, within(term, found)];
        },
        'C: damerauLevenshteinDistance in the engine': () => {
          const found = rows(grouped(`AND phrase != ${literal} AND damerauLevenshteinDistance(phrase, ${literal}) <= 2`));
          return [found.length, found.length];
        },
      };
      for (const [name, way] of Object.entries(ways)) {
        const times: number[] = [];
        let counts: number[] = [];
        for (let i = 0; i < ROUNDS + 2; i++) {
          const started = performance.now();
          counts = way();
          if (i >= 2) {
            times.push(performance.now() - started);
          }
        }
        times.sort((a, b) => a - b);
        figures.push({
          name: `${term}, ${name}: p50`,
          value: Math.round(quantile(times, 0.5) * 10) / 10,
          unit: 'ms',
          target: 'reported',
          pass: null,
          note: `${counts[0].toLocaleString('en')} phrases to the process, ${counts[1].toLocaleString('en')} within 2`,
        });
        lines.push(tableRow(term, name, counts[0].toLocaleString('en'), counts[1].toLocaleString('en'), quantile(times, 0.5).toFixed(1)));
        process.stderr.write(`${lines[lines.length - 1]}\n`);
      }
    }
    recordFigures('suggestions', figures);
    process.stdout.write(
      [
        '',
        `## Suggestions: where the distance is computed (30 days, one thread, p50 of ${ROUNDS})`,
        '',
        tableRow('term', 'way', 'phrases to the process', 'within 2', 'p50 ms'),
        '|---|---|---|---|---|',
        ...lines,
        '',
      ].join('\n'),
    );
  });
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exit(1);
});
