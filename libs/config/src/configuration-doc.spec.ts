import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { SECRET_MARK, configurationDoc, variablesNamed, variablesTable } from './configuration-doc';
import { CONFIG_VARIABLES } from './variables';

const ROOT = path.resolve(__dirname, '../../..');
const DOC = path.join(ROOT, 'docs/configuration.md');
/** The variables the README's short table lists: the ones most people set. */
const README_VARIABLES = ['PORT', 'DATA_DIR', 'SERVICE_BASIC_AUTH', 'KAFKA_BROKERS', 'CLICKHOUSE_URL', 'RETENTION_DAYS'];

/** The rows of a Markdown table in `text` that begins with `| variable`, up to its end. */
function tableIn(text: string): string {
  const start = text.indexOf('| variable ');
  if (start === -1) {
    throw new Error('no variables table');
  }
  const end = text.indexOf('\n\n', start);
  return text.slice(start, end === -1 ? undefined : end + 1);
}

describe('docs/configuration.md', () => {
  if (process.env.UPDATE_DOCS === '1') {
    writeFileSync(DOC, configurationDoc());
  }

  it('is the page generated from the declarations (after a change: npm run docs:configuration)', () => {
    expect(readFileSync(DOC, 'utf8')).toBe(configurationDoc());
  });

  it('has one row per declared variable, in order, with its default, secrecy and meaning', () => {
    const rows = tableIn(configurationDoc()).trimEnd().split('\n').slice(2);
    expect(rows).toHaveLength(CONFIG_VARIABLES.length);
    rows.forEach((row, i) => {
      const v = CONFIG_VARIABLES[i];
      const [name, shown, meaning] = row.split(' | ').map((cell) => cell.replace(/^\| /, '').replace(/ \|$/, '').trim());
      expect([name, meaning.startsWith(SECRET_MARK), meaning.endsWith(v.description)]).toEqual([`\`${v.name}\``, v.secret, true]);
      expect(shown).toBe(v.default === undefined ? 'unset' : v.default === '' ? 'empty' : `\`${v.default}\``);
    });
  });

  it("gives the README's short table the same rows for the variables most people set", () => {
    expect(tableIn(readFileSync(path.join(ROOT, 'README.md'), 'utf8'))).toBe(variablesTable(variablesNamed(README_VARIABLES)));
  });

  it('refuses a name that is not declared', () => {
    expect(() => variablesNamed(['PORT', 'NO_SUCH_VARIABLE'])).toThrow('no variable is declared as NO_SUCH_VARIABLE');
  });
});
