import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * The repository explains itself: no file points to a document that is not in it, and the Markdown links between
 * its documents lead somewhere. Every rule, decision and contract is written in docs/ (architecture.md first).
 */
const ROOT = path.resolve(__dirname, '..');
/** The page whose Layout section lists every folder. */
const LAYOUT_DOC = 'docs/development.md';

/** Every tracked file that exists in the work tree, relative to the root, with `/` separators. */
function trackedFiles(): string[] {
  return execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
    .split('\0')
    .filter((file) => file !== '' && existsSync(path.join(ROOT, file)) && statSync(path.join(ROOT, file)).isFile());
}

/** A file's text, or undefined for a binary file (one holding a NUL byte: images, fonts). */
function textOf(file: string): string | undefined {
  const bytes = readFileSync(path.join(ROOT, file));
  return bytes.includes(0) ? undefined : bytes.toString('utf8');
}

/**
 * Names of documents that live outside the repository (a design document and an API specification that only some
 * contributors have). Written so that this file does not match them itself: `\.`, `[-]` and `\s+` stand where the
 * names have a dot, a hyphen and a space.
 */
const OUTSIDE_DOCUMENTS: readonly RegExp[] = [/DESIGN\.md/i, /SERVICE[-]API[-]SPEC/i, /\bthe\s+spec(ification)?\b/i];

/** `file:line: text` of every line of `text` that matches one of the patterns (a match across a line break included). */
function mentions(file: string, text: string, patterns: readonly RegExp[]): string[] {
  const found: string[] = [];
  for (const pattern of patterns) {
    for (const match of text.matchAll(new RegExp(pattern.source, `${pattern.flags}g`))) {
      const line = text.slice(0, match.index).split('\n').length;
      found.push(`${file}:${line}: ${text.split('\n')[line - 1].trim()}`);
    }
  }
  return found;
}

/** The text of a Markdown document without fenced code blocks and inline code (links there are not links). */
function proseOf(markdown: string): string {
  return markdown
    .replace(/^(```|~~~)[\s\S]*?^\1/gm, (block) => block.replace(/[^\n]/g, ' '))
    .replace(/`[^`\n]*`/g, (code) => ' '.repeat(code.length));
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens (github-slugger's rule). */
function slug(heading: string): string {
  const text = heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*]/g, '')
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N} _-]/gu, '').replace(/ /g, '-');
}

const HEADING = /^#{1,6}[ \t]+(.+?)[ \t#]*$/;

/** Every anchor the headings of a Markdown document give (a repeated heading gets -1, -2, ... as on GitHub). */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const lines = markdown.split('\n');
  // A heading is found in the prose (a `#` line of a code block is none) and read from the document (inline code kept).
  for (const [i, prose] of proseOf(markdown).split('\n').entries()) {
    const heading = HEADING.test(prose) ? HEADING.exec(lines[i])?.[1] : undefined;
    if (heading === undefined) {
      continue;
    }
    const base = slug(heading);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** Relative link targets of a Markdown document: inline links and images, and reference definitions. */
function linkTargets(markdown: string): Array<{ line: number; target: string }> {
  const prose = proseOf(markdown);
  const targets: Array<{ line: number; target: string }> = [];
  const patterns = [
    /!?\[(?:[^\][]|\[[^\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g,
    /^[ \t]*\[[^\]]+\]:[ \t]*<?(\S+?)>?(?:[ \t].*)?$/gm,
  ];
  for (const pattern of patterns) {
    for (const match of prose.matchAll(pattern)) {
      const target = match[1];
      if (target === '' || /^[a-z][a-z0-9+.-]*:/i.test(target)) {
        // a URL with a scheme: not a file here
        continue;
      }
      targets.push({ line: prose.slice(0, match.index).split('\n').length, target });
    }
  }
  return targets;
}

/** `file:line: target` of every relative link of a Markdown file whose file, or heading, does not exist. */
function brokenLinks(file: string, markdown: string): string[] {
  const broken: string[] = [];
  for (const { line, target } of linkTargets(markdown)) {
    const [pathPart, anchor] = target.split('#', 2) as [string, string | undefined];
    const decoded = decodeURIComponent(pathPart.split('?')[0]);
    const resolved = decoded === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), decoded));
    const absolute = path.join(ROOT, resolved);
    if (decoded !== '' && (resolved.startsWith('..') || !existsSync(absolute))) {
      broken.push(`${file}:${line}: ${target} (no file ${resolved})`);
      continue;
    }
    if (!anchor || !resolved.endsWith('.md')) {
      continue;
    }
    if (!anchorsOf(decoded === '' ? markdown : readFileSync(absolute, 'utf8')).has(anchor)) {
      broken.push(`${file}:${line}: ${target} (no heading #${anchor} in ${resolved})`);
    }
  }
  return broken;
}

/** Every folder that holds a tracked file, at any depth. */
function foldersOf(files: readonly string[]): Set<string> {
  const folders = new Set<string>();
  for (const file of files) {
    const parts = file.split('/').slice(0, -1);
    parts.forEach((_, i) => folders.add(parts.slice(0, i + 1).join('/')));
  }
  return folders;
}

/**
 * The folders the Layout of docs/development.md must list: every top-level folder and its subfolders (each app, each library,
 * test/support, docs/client, ...), and the feature folders inside apps/<app>/src and libs/<lib>/src.
 */
function foldersToList(files: readonly string[]): string[] {
  return [...foldersOf(files)]
    .filter((folder) => {
      const parts = folder.split('/');
      return parts.length <= 2 || (parts.length === 4 && (parts[0] === 'apps' || parts[0] === 'libs') && parts[2] === 'src');
    })
    .sort();
}

/** The folders a "## Layout" section lists: the lines of its code block that begin with a path ending in `/`. */
function layoutFolders(readme: string): string[] {
  const section = readme.split(/^## /m).find((s) => s.startsWith('Layout\n'));
  if (section === undefined) {
    throw new Error(`${LAYOUT_DOC} has no "## Layout" section`);
  }
  const block = /^```\n([\s\S]*?)^```/m.exec(section);
  if (!block) {
    throw new Error(`the Layout section of ${LAYOUT_DOC} has no code block`);
  }
  return [...block[1].matchAll(/^(\S+)\/(?=\s|$)/gm)].map((m) => m[1]);
}

describe('the documentation in the repository', () => {
  const files = trackedFiles();
  const markdown = files.filter((file) => file.endsWith('.md'));

  it('finds the tracked files and the Markdown documents', () => {
    expect(files).toEqual(expect.arrayContaining(['README.md', 'docs/architecture.md', 'docs/decisions/README.md']));
    expect(markdown).toEqual(expect.arrayContaining(['README.md', 'docs/architecture.md', 'docs/client/README.md']));
  });

  it('never points to a design document or API specification that is not in the repository', () => {
    const found = files.flatMap((file) => {
      const text = textOf(file);
      return text === undefined ? [] : mentions(file, text, OUTSIDE_DOCUMENTS);
    });
    expect([...new Set(found)]).toEqual([]);
  });

  it('has no relative Markdown link to a file or heading that does not exist', () => {
    expect(markdown.flatMap((file) => brokenLinks(file, readFileSync(path.join(ROOT, file), 'utf8')))).toEqual([]);
  });

  it('lists every folder in the Layout of docs/development.md, one line each', () => {
    const listed = layoutFolders(readFileSync(path.join(ROOT, LAYOUT_DOC), 'utf8'));
    expect(foldersToList(files).filter((folder) => !listed.includes(folder))).toEqual([]);
    expect(listed.filter((folder, i) => listed.indexOf(folder) !== i)).toEqual([]);
  });

  it('lists no folder in the Layout of docs/development.md that does not exist', () => {
    const folders = foldersOf(files);
    expect(layoutFolders(readFileSync(path.join(ROOT, LAYOUT_DOC), 'utf8')).filter((folder) => !folders.has(folder))).toEqual([]);
  });

  it('knows which folders the Layout must list', () => {
    const files = ['README.md', 'apps/query/src/main.ts', 'apps/query/src/api-keys/commands/y.ts', 'apps/query/src/search-terms/x.ts'];
    expect(foldersToList([...files, 'libs/clickhouse/src/migrations/0001.ts', 'test/support/a.ts', '.ci/run'])).toEqual([
      '.ci',
      'apps',
      'apps/query',
      'apps/query/src/api-keys',
      'apps/query/src/search-terms',
      'libs',
      'libs/clickhouse',
      'libs/clickhouse/src/migrations',
      'test',
      'test/support',
    ]);
    const layout = [
      '## Layout',
      '',
      'Text apps/ here.',
      '',
      '```',
      'apps/        the apps',
      'apps/query/  one',
      '  continued',
      'x.yml, Y  z',
    ];
    expect(layoutFolders([...layout, '```', '## Next', '```', 'docs/  no', '```'].join('\n'))).toEqual(['apps', 'apps/query']);
  });

  it('reads links and headings as GitHub does', () => {
    const doc = [
      '# Title',
      '## Exactly once, and its two remaining windows',
      '### Ingest: `npm run bench:ingest`',
      '## Title',
      '```',
      '## not a heading [x](missing.md)',
      '```',
      'See [a](docs/a.md#part), ![b](b.png "title"), `[c](not-a-link.md)`, [d](https://example.com/x.md).',
      '[e]: ./e.md',
    ].join('\n');
    expect([...anchorsOf(doc)]).toEqual(['title', 'exactly-once-and-its-two-remaining-windows', 'ingest-npm-run-benchingest', 'title-1']);
    expect(linkTargets(doc)).toEqual([
      { line: 8, target: 'docs/a.md#part' },
      { line: 8, target: 'b.png' },
      { line: 9, target: './e.md' },
    ]);
    expect(brokenLinks('README.md', '[x](docs/no-such-file.md) [y](docs/architecture.md#no-such-heading) [z](#title)\n# Title')).toEqual([
      'README.md:1: docs/no-such-file.md (no file docs/no-such-file.md)',
      'README.md:1: docs/architecture.md#no-such-heading (no heading #no-such-heading in docs/architecture.md)',
    ]);
  });

  it('catches every way of naming an outside document', () => {
    const names = [
      'DESIGN' + '.md section 10',
      'as SERVICE' + '-API-SPEC says',
      'the' + ' spec',
      'The' + "\nspec's order",
      'the' + ' specification',
    ];
    expect(names.map((name) => mentions('x', name, OUTSIDE_DOCUMENTS).length)).toEqual([1, 1, 1, 1, 1]);
    expect(mentions('x', 'a spec file, the Compose Specification, test/x.spec.ts, the special case', OUTSIDE_DOCUMENTS)).toEqual([]);
  });
});
