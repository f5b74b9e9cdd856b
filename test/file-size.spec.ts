import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Rooms that fit: no source file of apps/ or libs/ grows past 300 lines, so each keeps to one job and can be read
 * whole. Specs are left out (a spec follows what it tests), and so is libs/config/src/variables.ts, a table.
 */
const ROOT = path.resolve(__dirname, '..');
const MAX_LINES = 300;
const EXEMPT = new Set(['libs/config/src/variables.ts']);

/** The tracked `.ts` files under apps/ and libs/ that exist in the work tree, relative to the root. */
function sources(): string[] {
  return execFileSync('git', ['ls-files', '-z', '--', 'apps', 'libs'], { cwd: ROOT, encoding: 'utf8' })
    .split('\0')
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.spec.ts') && !EXEMPT.has(file))
    .filter((file) => existsSync(path.join(ROOT, file)));
}

/** Lines as `wc -l` counts them, plus a last line without its line break. */
function lineCount(text: string): number {
  const breaks = text.split('\n').length - 1;
  return text === '' || text.endsWith('\n') ? breaks : breaks + 1;
}

describe('file size', () => {
  it(`no .ts file under apps/ or libs/ is over ${MAX_LINES} lines (specs and libs/config/src/variables.ts aside)`, () => {
    const files = sources();
    const over = files
      .map((file) => ({ file, lines: lineCount(readFileSync(path.join(ROOT, file), 'utf8')) }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(over).toEqual([]);
    // The list is read from git: an empty one would pass without looking at anything.
    expect(files.length).toBeGreaterThan(100);
  });
});
