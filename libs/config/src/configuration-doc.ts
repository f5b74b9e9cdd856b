import { CONFIG_VARIABLES, type ConfigVariable } from './variables';

/** How the docs mark a secret: first in its meaning, where an operator scanning the table sees it. */
export const SECRET_MARK = '**secret** (never printed): ';

/** The default as the docs write it: the text an operator would write, in backticks; or what unset means. */
function shownDefault(variable: ConfigVariable): string {
  if (variable.default === undefined) {
    return 'unset';
  }
  return variable.default === '' ? 'empty' : `\`${variable.default}\``;
}

/**
 * A Markdown table of the variables, padded as Prettier pads one (each column as wide as its widest cell), so the
 * written file passes `prettier --check` unchanged.
 */
export function variablesTable(variables: readonly ConfigVariable[]): string {
  const rows = [
    ['variable', 'default', 'meaning'],
    ...variables.map((v) => [`\`${v.name}\``, shownDefault(v), (v.secret ? SECRET_MARK : '') + v.description]),
  ];
  const widths = rows[0].map((_, column) => Math.max(3, ...rows.map((row) => row[column].length)));
  const line = (cells: string[]) => `| ${cells.map((cell, column) => cell.padEnd(widths[column])).join(' | ')} |\n`;
  const [header, ...body] = rows;
  return line(header) + line(widths.map((width) => '-'.repeat(width))) + body.map(line).join('');
}

/** The variables named, in the order of the declarations: the README's short table of the ones most people set. */
export function variablesNamed(names: readonly string[]): ConfigVariable[] {
  const unknown = names.filter((name) => !CONFIG_VARIABLES.some((v) => v.name === name));
  if (unknown.length > 0) {
    throw new Error(`no variable is declared as ${unknown.join(', ')}`);
  }
  return CONFIG_VARIABLES.filter((v) => names.includes(v.name));
}

/** docs/configuration.md, whole: written by `npm run docs:configuration`, checked by configuration-doc.spec.ts. */
export function configurationDoc(): string {
  return `# Configuration

For operators. Every setting is an environment variable; a wrong value stops start-up with a message naming the variable
(a secret's value is shown as \`(hidden)\`). The names are a contract: deployments and tools outside this repository set
them, so a name never changes.

This page is generated from \`libs/config/src/variables.ts\`, where each variable is declared once (its check, default,
meaning and whether it is a secret): after changing a declaration run \`npm run docs:configuration\`;
\`libs/config/src/configuration-doc.spec.ts\` fails while this page is not current. How to run the service with them:
[operations.md](operations.md) and [distributed.md](distributed.md).

## Variables

${variablesTable(CONFIG_VARIABLES)}`;
}
