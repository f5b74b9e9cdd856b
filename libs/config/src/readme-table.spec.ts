import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { CONFIG_VARIABLES, type ConfigVariable } from './variables';

/** How the README marks a secret: first in its meaning, where an operator scanning the table sees it. */
const SECRET_MARK = '**secret** (never printed): ';

/** The default as the README writes it: the text an operator would write, in backticks; or what unset means. */
function shownDefault(variable: ConfigVariable): string {
  if (variable.default === undefined) {
    return 'unset';
  }
  return variable.default === '' ? 'empty' : `\`${variable.default}\``;
}

interface Row {
  variable: string;
  default: string;
  meaning: string;
}

/** The rows of the table under "## Configuration", each cell trimmed; the header is checked, not returned. */
function configurationTable(readme: string): Row[] {
  const section = readme.split(/^## /m).find((s) => s.startsWith('Configuration\n'));
  if (section === undefined) {
    throw new Error('README.md has no "## Configuration" section');
  }
  const [header, separator, ...rows] = section.split('\n').filter((line) => line.startsWith('|'));
  // Prettier pads the cells (and the separator's dashes) to the widest one: compared trimmed.
  const cellsOf = (line: string) =>
    line
      .replace(/^\|/, '')
      .replace(/\|$/, '')
      .split('|')
      .map((c) => c.trim());
  expect(cellsOf(header)).toEqual(['variable', 'default', 'meaning']);
  expect(cellsOf(separator).every((c) => /^-{3,}$/.test(c))).toBe(true);
  return rows.map((line) => {
    const cells = cellsOf(line);
    // One variable per row: a cell listing two ("`A`, `B`") or a stray | would shift the columns.
    expect(cells).toHaveLength(3);
    expect(cells[0]).toMatch(/^`[A-Z0-9_]+`$/);
    return { variable: cells[0].slice(1, -1), default: cells[1], meaning: cells[2] };
  });
}

describe("README's configuration table", () => {
  const rows = configurationTable(readFileSync(path.resolve(__dirname, '../../../README.md'), 'utf8'));

  it('has one row per declared variable, in the order of the declarations', () => {
    expect(rows.map((r) => r.variable)).toEqual(CONFIG_VARIABLES.map((v) => v.name));
  });

  it('gives each variable its declared default', () => {
    expect(rows.map((r) => [r.variable, r.default])).toEqual(CONFIG_VARIABLES.map((v) => [v.name, shownDefault(v)]));
  });

  it('marks exactly the declared secrets', () => {
    expect(rows.map((r) => [r.variable, r.meaning.startsWith(SECRET_MARK)])).toEqual(CONFIG_VARIABLES.map((v) => [v.name, v.secret]));
    expect(rows.filter((r) => r.meaning.indexOf('**secret**', 1) !== -1)).toEqual([]);
  });

  it('gives each variable its declared description', () => {
    const meaning = (v: ConfigVariable) => (v.secret ? SECRET_MARK : '') + v.description;
    expect(rows.map((r) => [r.variable, r.meaning])).toEqual(CONFIG_VARIABLES.map((v) => [v.name, meaning(v)]));
  });
});
