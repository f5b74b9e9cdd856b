/**
 * npm run bench:summary — writes docs/benchmarks/current.md (every current figure against its target) from
 * docs/benchmarks/figures.json, and the README's block between `<!-- benchmarks -->` and `<!-- /benchmarks -->` when
 * the README has those markers (nothing else of the README is touched); prints the targets line. `npm run bench`
 * runs it after running them all.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { currentMarkdown, readmeBlock, replaceReadmeBlock, targetsLine } from './figures-docs';
import { readFigures, ROOT } from './figures';

export const CURRENT_FILE = path.join(ROOT, 'docs/benchmarks/current.md');
const README_FILE = path.join(ROOT, 'README.md');

function main(): void {
  const figures = readFigures();
  writeFileSync(CURRENT_FILE, currentMarkdown(figures));
  const readme = readFileSync(README_FILE, 'utf8');
  const updated = replaceReadmeBlock(readme, readmeBlock(figures));
  if (updated !== undefined && updated !== readme) {
    writeFileSync(README_FILE, updated);
  }
  const where = updated === undefined ? 'README.md has no benchmarks block' : 'README.md block written';
  process.stdout.write(`${targetsLine(figures.figures)}: ${path.relative(ROOT, CURRENT_FILE)} written; ${where}.\n`);
}

main();
