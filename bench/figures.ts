/**
 * The figures of every benchmark with their targets, kept in docs/benchmarks/figures.json (committed): one row per
 * figure with the benchmark, its name, value, unit, target and whether it is met, the date and commit it was measured
 * on and the machine. A benchmark that finishes calls recordFigures, which replaces the rows of the same benchmark and
 * name and appends new ones (rows it no longer measures keep their own date); `npm run bench:summary` then writes
 * docs/benchmarks/current.md and the README's block from the file (bench/figures-docs.ts).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** A figure as a benchmark measures it. */
export interface Figure {
  name: string;
  /** NaN: it could not be computed (a quantile among probes never found, a failed answer); null in figures.json. */
  value: number;
  unit: string;
  /** The target as written in the issue ('<= 0.5x'), or 'reported' / '-' for a figure without one. */
  target: string;
  /** Whether the target is met; null for a figure without a target. */
  pass: boolean | null;
  note?: string;
}

/** The machine a figure was measured on; null where it was not recorded (the runs before figures.json). */
export interface Machine {
  cores: number;
  ramGb: number | null;
  node: string | null;
}

/** A row of docs/benchmarks/figures.json. */
export interface FigureRow extends Omit<Figure, 'value'> {
  bench: string;
  value: number | null;
  /** UTC, `YYYY-MM-DD` or `YYYY-MM-DDTHH:MMZ` (when the time of the run is known). */
  date: string;
  /** Short hash of the commit measured; with `dirty` when the work tree had changes to the code. */
  commit: string | null;
  dirty?: boolean;
  machine: Machine;
  /**
   * The load average (1, 5, 15 minutes) when the figure was recorded; for the runs before figures.json, what their
   * record says of the machine's load ('4.9 at the start', 'shared with other work').
   */
  load?: string;
}

export interface FiguresFile {
  /** What the file is, for a reader who opens it first. */
  about: string;
  figures: FigureRow[];
}

/** The benchmarks in the order of `npm run bench`, then the ones it does not run; others follow in name order. */
export const BENCHES = [
  'ingest',
  'query',
  'analytics',
  'ranking',
  'fairness',
  'attacks',
  'intake',
  'intake-kafka',
  'intake-ids',
  'intake-mixed',
  'intake-clicks',
  'scale',
  'storage-check',
  'cluster',
  'suggestions',
  'soak',
];

export const ROOT = path.resolve(__dirname, '../..');
export const FIGURES_FILE = path.join(ROOT, 'docs/benchmarks/figures.json');

export const ABOUT =
  'The current figure of every benchmark (written by the benchmarks, bench/figures.ts; docs/benchmarks/methods.md). ' +
  'Each row: bench, name, value, unit, target, pass (null: no target), date (UTC), commit, machine. ' +
  'npm run bench:summary writes docs/benchmarks/current.md from it.';

export function readFigures(file = FIGURES_FILE): FiguresFile {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as FiguresFile) : { about: ABOUT, figures: [] };
}

/** The rows grouped by benchmark (BENCHES first, in that order), each benchmark's rows in the order they came. */
export function ordered(rows: readonly FigureRow[]): FigureRow[] {
  const rank = (bench: string) => (BENCHES.includes(bench) ? BENCHES.indexOf(bench) : BENCHES.length);
  return rows
    .map((row, i) => ({ row, i }))
    .sort((a, b) => rank(a.row.bench) - rank(b.row.bench) || a.row.bench.localeCompare(b.row.bench) || a.i - b.i)
    .map(({ row }) => row);
}

/** The file's text: two-space JSON, as Prettier leaves it, with a final line break. */
export function figuresJson(file: FiguresFile): string {
  return `${JSON.stringify({ about: file.about, figures: ordered(file.figures) }, null, 2)}\n`;
}

/**
 * `rows` merged into `file`: a row replaces the one of the same benchmark and name (in its place), a new name is
 * appended after the benchmark's other rows.
 */
export function mergeFigures(file: FiguresFile, rows: readonly FigureRow[]): FiguresFile {
  const figures = [...file.figures];
  for (const row of rows) {
    const at = figures.findIndex((f) => f.bench === row.bench && f.name === row.name);
    if (at >= 0) {
      figures[at] = row;
    } else {
      const last = figures.map((f) => f.bench).lastIndexOf(row.bench);
      figures.splice(last >= 0 ? last + 1 : figures.length, 0, row);
    }
  }
  return { about: ABOUT, figures: ordered(figures) };
}

/** The commit checked out (short hash) and whether the code differs from it; null outside a git work tree. */
function commitOf(): { commit: string | null; dirty?: boolean } {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short=7', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    const changes = execFileSync('git', ['status', '--porcelain', '--untracked-files=no', '--', 'apps', 'libs', 'bench', 'package.json'], {
      cwd: ROOT,
      encoding: 'utf8',
    }).trim();
    return changes === '' ? { commit } : { commit, dirty: true };
  } catch {
    return { commit: null };
  }
}

/**
 * `value` rounded to `decimals`, or to more where the rounded value would meet a target (`<=` or `>=` `limit`) that
 * the value itself misses, or the other way round: 1.5003 against <= 1.5 is written 1.5003, not 1.5.
 */
export function roundAgainst(value: number, limit: number, below: boolean, decimals = 2): number {
  const meets = (v: number) => (below ? v <= limit : v >= limit);
  for (let d = decimals; d < 8; d++) {
    const rounded = Math.round(value * 10 ** d) / 10 ** d;
    if (meets(rounded) === meets(value)) {
      return rounded;
    }
  }
  return value;
}

/** This machine: cores, RAM (GB, rounded) and Node's version. */
export function thisMachine(): Machine {
  return { cores: os.cpus().length, ramGb: Math.round(os.totalmem() / 2 ** 30), node: process.version };
}

/** Two-decimal load averages of the last 1, 5 and 15 minutes. */
export function loadAverage(): string {
  return os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(', ');
}

/** Records a benchmark's figures in docs/benchmarks/figures.json, dated now, with this commit and machine. */
export function recordFigures(bench: string, figures: Figure[]): void {
  const now = new Date().toISOString().slice(0, 16);
  const at = commitOf();
  const rows = figures.map((f): FigureRow => ({
    bench,
    ...f,
    // JSON has no NaN: a figure that could not be computed is null.
    value: Number.isFinite(f.value) ? f.value : null,
    date: `${now}Z`,
    ...at,
    machine: thisMachine(),
    load: loadAverage(),
  }));
  writeFileSync(FIGURES_FILE, figuresJson(mergeFigures(readFigures(), rows)));
  process.stderr.write(`${rows.length} figures of ${bench} recorded in ${path.relative(ROOT, FIGURES_FILE)}\n`);
}
