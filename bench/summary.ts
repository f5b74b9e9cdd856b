/**
 * npm run bench:summary — one table of every figure the benchmarks recorded (tmp/bench-figures.json), each with its
 * target and whether it is met; `npm run bench` prints it after running them all.
 */
import { readFigures } from './figures';
import { tableRow } from './proc';

const BENCHES = ['ingest', 'query', 'analytics', 'ranking', 'fairness', 'attacks', 'intake', 'intake-mixed', 'intake-clicks'];

function main(): void {
  const all = readFigures();
  const rows = [tableRow('benchmark', 'figure', 'value', 'target', 'result'), '|---|---|---|---|---|'];
  let missed = 0;
  for (const bench of [...BENCHES, ...Object.keys(all).filter((b) => !BENCHES.includes(b))]) {
    const figures = all[bench];
    if (!figures) {
      rows.push(tableRow(bench, '(not run)', '', '', ''));
      continue;
    }
    for (const f of figures) {
      // A figure that could not be computed (NaN) was written as null.
      const shown = Number.isFinite(f.value) ? f.value.toLocaleString('en') : '-';
      const value = `${shown}${f.unit === 'x' ? 'x' : ` ${f.unit}`}${f.note ? ` (${f.note})` : ''}`;
      const result = f.pass === null ? '-' : f.pass ? 'pass' : '**miss**';
      if (f.pass === false) {
        missed++;
      }
      rows.push(tableRow(bench, f.name, value, f.target, result));
    }
  }
  process.stdout.write(`\n## Every figure against its target\n\n${rows.join('\n')}\n\n${missed} missed.\n`);
}

main();
