import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  currentMarkdown,
  formatNumber,
  formatValue,
  markdownTable,
  readmeBlock,
  readmeBlockOf,
  README_END,
  README_START,
  replaceReadmeBlock,
  targetsLine,
} from '../bench/figures-docs';
import { figuresJson, mergeFigures, readFigures, roundAgainst, type FigureRow, type FiguresFile } from '../bench/figures';

/**
 * The benchmark documents are made from docs/benchmarks/figures.json (`npm run bench:summary`): current.md and the
 * README's block must be what the generator makes of the file, so a figure quoted there that is not the current one
 * fails here. After a benchmark run (or an edit of figures.json), `npm run bench:summary` writes both again.
 */
const ROOT = path.resolve(__dirname, '..');
const FIGURES = path.join(ROOT, 'docs/benchmarks/figures.json');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

function row(bench: string, name: string, value: number | null, pass: boolean | null): FigureRow {
  return {
    bench,
    name,
    value,
    unit: 'x',
    target: pass === null ? 'reported' : '<= 1x',
    pass,
    date: '2026-11-27T07:00Z',
    commit: 'abc1234',
    machine: { cores: 2, ramGb: 24, node: 'v20.20.2' },
  };
}

describe('the benchmark documents', () => {
  const figures = readFigures(FIGURES);

  it('figures.json is laid out as the benchmarks write it', () => {
    expect(figures.figures.length).toBeGreaterThan(50);
    expect(read('docs/benchmarks/figures.json')).toBe(figuresJson(figures));
  });

  it('docs/benchmarks/current.md is what `npm run bench:summary` makes of figures.json', () => {
    expect(read('docs/benchmarks/current.md')).toBe(currentMarkdown(figures));
  });

  it("the README's benchmarks block is what `npm run bench:summary` makes of figures.json", () => {
    const block = readmeBlockOf(read('README.md'));
    if (block === undefined) {
      throw new Error(`README.md has no ${README_START} ... ${README_END} block (npm run bench:summary fills one in)`);
    }
    expect(block).toBe(readmeBlock(figures));
  });

  it('the same figures give the same bytes, whatever the order of the benchmarks in the file', () => {
    // Each benchmark's rows keep their order (the order it measures them in); the benchmarks are put in a fixed order.
    const shuffled: FiguresFile = { ...figures, figures: [...figures.figures].sort((a, b) => b.bench.localeCompare(a.bench)) };
    expect(shuffled.figures[0].bench).not.toBe(figures.figures[0].bench);
    expect(currentMarkdown(JSON.parse(JSON.stringify(figures)) as FiguresFile)).toBe(currentMarkdown(figures));
    expect(currentMarkdown(shuffled)).toBe(currentMarkdown(figures));
    expect(readmeBlock(shuffled)).toBe(readmeBlock(figures));
    expect(figuresJson(shuffled)).toBe(figuresJson(figures));
  });
});

describe('the benchmark documents generator', () => {
  it('counts the targets met among the figures that have one', () => {
    expect(targetsLine([row('a', 'x', 1, true), row('a', 'y', 2, false), row('a', 'z', 3, null)])).toBe('1 of 2 targets met');
  });

  it('writes values with their units and thousands separated', () => {
    expect(formatNumber(15581)).toBe('15,581');
    expect(formatNumber(-28)).toBe('-28');
    expect(formatNumber(15386.25)).toBe('15,386.25');
    expect(formatValue({ value: 0.37, unit: 'x' })).toBe('0.37x');
    expect(formatValue({ value: 718, unit: 'MB' })).toBe('718 MB');
    expect(formatValue({ value: null, unit: 'ms' })).toBe('-');
  });

  it('rounds a ratio so that it reads on the side of its target it is on', () => {
    expect(roundAgainst(1.8213, 2.2, true)).toBe(1.82);
    expect(roundAgainst(1.50034, 1.5, true)).toBe(1.5003);
    expect(roundAgainst(1.4999, 1.5, true)).toBe(1.5);
    expect(roundAgainst(0.7996, 0.8, false)).toBe(0.7996);
  });

  it('aligns a table as Prettier does', () => {
    expect(
      markdownTable(
        ['a', 'long header'],
        [
          ['wide cell', ''],
          ['b', 'c'],
        ],
      ),
    ).toBe(
      ['| a         | long header |', '| --------- | ----------- |', '| wide cell |             |', '| b         | c           |'].join(
        '\n',
      ),
    );
  });

  it('replaces a figure of the same benchmark and name, and appends a new one after its benchmark', () => {
    const file: FiguresFile = {
      about: '',
      figures: [row('ingest', 'a', 1, true), row('ingest', 'b', 2, true), row('query', 'c', 3, true)],
    };
    const merged = mergeFigures(file, [row('ingest', 'a', 5, false), row('ingest', 'd', 6, true)]);
    expect(merged.figures.map((f) => `${f.bench} ${f.name} ${f.value}`)).toEqual(['ingest a 5', 'ingest b 2', 'ingest d 6', 'query c 3']);
  });

  it("rewrites only the README's block between the markers", () => {
    const readme = `# Title\n\ntext\n\n${README_START}\nold\n${README_END}\n\nmore\n`;
    expect(replaceReadmeBlock(readme, '\nnew\n')).toBe(`# Title\n\ntext\n\n${README_START}\nnew\n${README_END}\n\nmore\n`);
    expect(replaceReadmeBlock('# Title\n', '\nnew\n')).toBeUndefined();
  });

  it('fails on a headline figure that figures.json does not have', () => {
    expect(() => readmeBlock({ about: '', figures: [row('ingest', 'a', 1, true)] })).toThrow(/has no figure/);
  });
});
