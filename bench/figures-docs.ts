/**
 * The documents made from docs/benchmarks/figures.json (bench/figures.ts): docs/benchmarks/current.md, every current
 * figure in one table, and the README's block between `<!-- benchmarks -->` and `<!-- /benchmarks -->`, the count
 * of targets met and a few headline figures. Pure functions of the file: the same JSON gives the same bytes, laid
 * out as Prettier lays out Markdown (test/benchmarks-docs.spec.ts compares both documents with them).
 */
import { ordered, type FigureRow, type FiguresFile, type Machine } from './figures';

export const README_START = '<!-- benchmarks -->';
export const README_END = '<!-- /benchmarks -->';

/**
 * The README's headline figures (at most about six), by benchmark and name, with the label the README shows. A
 * figure renamed by its benchmark must be renamed here too: the generator fails on a headline it cannot find.
 */
export const HEADLINES: ReadonlyArray<{ bench: string; name: string; label: string }> = [
  { bench: 'ingest', name: 'ingest rate / direct inserts', label: 'Kafka ingest rate / the same rows inserted directly (1M events)' },
  { bench: 'scale', name: '100M sort=no_clicks 30d p95', label: '`sort=no_clicks` (the relevance to-do list), 30d, at 100M events: p95' },
  { bench: 'analytics', name: 'analytics engagement=true, 30d', label: '`engagement=true`, 30d / the plain list, 30d (10M events)' },
  { bench: 'scale', name: '100M engagement 30d p95', label: '`engagement=true`, 30d, at 100M events: p95' },
  {
    bench: 'intake',
    name: 'POST /events BASIC, 0.4x of the floor: answered',
    label: '`POST /events`, one event per request, at 0.4x of `/health/live`: answered',
  },
  {
    bench: 'storage-check',
    name: 'answers p95 with the check / without, 10M',
    label: 'answers p95 with the storage check every 5 s / without it (10M events)',
  },
  {
    bench: 'fairness',
    name: "B's since=1d p50 loaded / unloaded, A's 429 sent again after Retry-After",
    label: "a customer's p50 while another floods / alone",
  },
];

/** Display width of a cell as Prettier counts it (one column per code point of these documents). */
function width(text: string): number {
  return [...text].length;
}

/** A Markdown table as Prettier aligns it: each column as wide as its widest cell (at least 3), left-aligned. */
export function markdownTable(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const widths = header.map((h, i) => Math.max(3, width(h), ...rows.map((r) => width(r[i]))));
  const line = (cells: readonly string[]) => `| ${cells.map((c, i) => c + ' '.repeat(widths[i] - width(c))).join(' | ')} |`;
  return [line(header), `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`, ...rows.map(line)].join('\n');
}

/** 12345.6 as '12,345.6': thousands separated, the decimals as recorded. */
export function formatNumber(value: number): string {
  const [whole, decimals] = String(Math.abs(value)).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${value < 0 ? '-' : ''}${grouped}${decimals === undefined ? '' : `.${decimals}`}`;
}

/** A figure's value with its unit: '0.37x', '718 MB', '36 of 40'; '-' when it could not be computed. */
export function formatValue(row: Pick<FigureRow, 'value' | 'unit'>): string {
  if (row.value === null) {
    return '-';
  }
  return `${formatNumber(row.value)}${row.unit === 'x' ? 'x' : ` ${row.unit}`}`;
}

export function formatResult(row: Pick<FigureRow, 'pass'>): string {
  return row.pass === null ? '-' : row.pass ? 'pass' : '**miss**';
}

/** '2026-11-27 07:20 UTC', or the day alone where the time was not recorded. */
export function formatDate(date: string): string {
  return date.length > 10 ? `${date.slice(0, 10)} ${date.slice(11, 16)} UTC` : date;
}

function formatCommit(row: FigureRow): string {
  return row.commit === null ? '-' : `${row.commit}${row.dirty ? ' (with changes)' : ''}`;
}

function formatMachine(machine: Machine, load: string | undefined): string {
  const parts = [`${machine.cores} cores`];
  if (machine.ramGb !== null) {
    parts.push(`${machine.ramGb} GB`);
  }
  if (machine.node !== null) {
    parts.push(`Node ${machine.node}`);
  }
  if (load !== undefined) {
    parts.push(/^\d/.test(load) ? `load ${load}` : load);
  }
  return parts.join(', ');
}

/** 'N of M targets met' over the figures that have a target. */
export function targetsLine(rows: readonly FigureRow[]): string {
  const withTarget = rows.filter((r) => r.pass !== null);
  return `${withTarget.filter((r) => r.pass === true).length} of ${withTarget.length} targets met`;
}

/** Markdown text in a table cell: no line breaks, and a pipe cannot end the cell. */
function cell(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/\|/g, '\\|');
}

/** docs/benchmarks/current.md. */
export function currentMarkdown(file: FiguresFile): string {
  const rows = ordered(file.figures);
  const table = markdownTable(
    ['benchmark', 'figure', 'value', 'target', 'result', 'details', 'date', 'commit', 'machine'],
    rows.map((r) => [
      r.bench,
      cell(r.name),
      formatValue(r),
      cell(r.target),
      formatResult(r),
      cell(r.note ?? ''),
      formatDate(r.date),
      formatCommit(r),
      formatMachine(r.machine, r.load),
    ]),
  );
  const missed = rows.filter((r) => r.pass === false).map((r) => `${r.bench}: ${r.name}`);
  return [
    '# Benchmarks: the current figures',
    '',
    '<!-- Written by `npm run bench:summary` from figures.json; edit that file (or run a benchmark), not this one. -->',
    '',
    `**${targetsLine(rows)}** (${missed.length} missed; a figure without a target is reported only).`,
    '',
    'Every figure of every benchmark as last measured, from [figures.json](figures.json): each benchmark run replaces',
    'its own rows there. How each is measured and its target: [methods.md](methods.md); earlier runs, and why a missed',
    'target is missed: [history/](README.md#history). "machine" gives what was recorded: cores, RAM, Node and the load',
    'average when the figure was recorded (the runs before figures.json recorded the cores only). Compare a ratio',
    'across dates rather than a time: the machine was not always equally fast.',
    '',
    table,
    '',
  ].join('\n');
}

/** The README's block between the markers (without them): the targets line and the headline figures. */
export function readmeBlock(file: FiguresFile): string {
  const rows = HEADLINES.map((h) => {
    const row = file.figures.find((f) => f.bench === h.bench && f.name === h.name);
    if (row === undefined) {
      throw new Error(`figures.json has no figure "${h.name}" of ${h.bench} (a headline of bench/figures-docs.ts)`);
    }
    return [h.label, formatValue(row), cell(row.target), formatResult(row), row.date.slice(0, 10)];
  });
  const cores = [...new Set(file.figures.map((f) => f.machine.cores))].sort((a, b) => a - b);
  const machines = `${cores.join('- and ')}-core machine${cores.length > 1 ? 's' : ''}`;
  return [
    '',
    '',
    `**${targetsLine(file.figures)}** on a ${machines}: every figure with its target, date and commit is in`,
    '[docs/benchmarks/current.md](docs/benchmarks/current.md), how each is measured in',
    '[docs/benchmarks/methods.md](docs/benchmarks/methods.md). Headline figures:',
    '',
    markdownTable(['figure', 'value', 'target', 'result', 'measured'], rows),
    '',
    '',
  ].join('\n');
}

/** `readme` with its block between the markers replaced by `block`; undefined when it has no such markers. */
export function replaceReadmeBlock(readme: string, block: string): string | undefined {
  const start = readme.indexOf(README_START);
  const end = readme.indexOf(README_END, start + README_START.length);
  if (start < 0 || end < 0) {
    return undefined;
  }
  return readme.slice(0, start + README_START.length) + block + readme.slice(end);
}

/** The text between the README's markers, or undefined without them. */
export function readmeBlockOf(readme: string): string | undefined {
  const start = readme.indexOf(README_START);
  const end = readme.indexOf(README_END, start + README_START.length);
  return start < 0 || end < 0 ? undefined : readme.slice(start + README_START.length, end);
}
