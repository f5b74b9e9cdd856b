/**
 * The figures of every benchmark with their targets, collected in tmp/bench-figures.json (each benchmark replaces
 * its own entry) and printed as one table by `npm run bench:summary` (bench/summary.ts).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

export interface Figure {
  name: string;
  value: number;
  unit: string;
  /** The target as written in the issue ('<= 0.5x'), or 'reported' for a figure without one. */
  target: string;
  /** Whether the target is met; null for a figure without a target. */
  pass: boolean | null;
  note?: string;
}

export const FIGURES_FILE = path.resolve(__dirname, '../../tmp/bench-figures.json');

export function readFigures(): Record<string, Figure[]> {
  return existsSync(FIGURES_FILE) ? (JSON.parse(readFileSync(FIGURES_FILE, 'utf8')) as Record<string, Figure[]>) : {};
}

export function recordFigures(bench: string, figures: Figure[]): void {
  mkdirSync(path.dirname(FIGURES_FILE), { recursive: true });
  const all = readFigures();
  all[bench] = figures.map((f) => ({ ...f, recordedAt: new Date().toISOString() }));
  writeFileSync(FIGURES_FILE, JSON.stringify(all, null, 2));
}
