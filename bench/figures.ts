// bench/figures.ts
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import * as path from 'node:path';
export interface Figure { name: string; value: number; unit: string; target: string; pass: boolean | null; note?: string }
const FILE = path.resolve(__dirname, '../../tmp/bench-figures.json');
export function recordFigures(bench: string, figures: Figure[]): void {
  mkdirSync(path.dirname(FILE), { recursive: true });
  const all = existsSync(FILE) ? (JSON.parse(readFileSync(FILE, 'utf8')) as Record<string, Figure[]>) : {};
  all[bench] = figures;
  writeFileSync(FILE, JSON.stringify(all, null, 2));
}
