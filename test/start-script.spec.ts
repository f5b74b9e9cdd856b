import { mkdirSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { freshDir, ROOT } from './support/processes';

// scripts/start.js is a plain CommonJS script (run by `npm start` before anything is built).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { buildNeeded } = require(path.join(ROOT, 'scripts/start.js')) as {
  buildNeeded: (root: string) => 'missing' | 'stale' | undefined;
};

/** A project tree as `npm start` sees it: sources, configuration files and (unless told otherwise) a build. */
function project(files: Record<string, number>): string {
  const root = freshDir('start-script');
  for (const [file, secondsAgo] of Object.entries(files)) {
    const full = path.join(root, file);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, '');
    const at = new Date(Date.now() - secondsAgo * 1000);
    utimesSync(full, at, at);
  }
  // Folders as old as the sources: a folder's time changes when an entry is added, deleted or renamed.
  const age = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        age(path.join(dir, entry.name));
      }
    }
    const at = new Date(Date.now() - 300_000);
    utimesSync(dir, at, at);
  };
  age(root);
  return root;
}

const SOURCES = { 'apps/query/src/main.ts': 300, 'libs/auth/src/password.ts': 300, 'package.json': 300, 'tsconfig.json': 300 };
const BUILD = { 'dist/apps/standalone/src/main.js': 100, 'dist/dashboard/index.html': 90 };

describe('npm start: whether it builds first (scripts/start.js)', () => {
  it('builds when there is no build', () => {
    expect(buildNeeded(project(SOURCES))).toBe('missing');
  });

  it('builds when a build step did not finish (the dashboard, written last, is missing)', () => {
    expect(buildNeeded(project({ ...SOURCES, 'dist/apps/standalone/src/main.js': 100 }))).toBe('missing');
  });

  it('does not build when the build is newer than every source and configuration file', () => {
    expect(buildNeeded(project({ ...SOURCES, ...BUILD }))).toBeUndefined();
  });

  it('builds when a source deep under apps/ or libs/ changed after the build', () => {
    expect(buildNeeded(project({ ...SOURCES, ...BUILD, 'libs/auth/src/deep/er/credentials.ts': 10 }))).toBe('stale');
    expect(buildNeeded(project({ ...SOURCES, ...BUILD, 'apps/dashboard/src/app.css': 10 }))).toBe('stale');
  });

  it('builds when a source was deleted after the build (its stale output would still be run)', () => {
    const root = project({ ...SOURCES, ...BUILD, 'libs/auth/src/gone.ts': 300 });
    expect(buildNeeded(root)).toBeUndefined();
    rmSync(path.join(root, 'libs/auth/src/gone.ts'));
    expect(buildNeeded(root)).toBe('stale');
  });

  it('builds when a configuration file changed after the build', () => {
    expect(buildNeeded(project({ ...SOURCES, ...BUILD, 'tsconfig.build.json': 10 }))).toBe('stale');
    expect(buildNeeded(project({ ...SOURCES, ...BUILD, 'package.json': 10 }))).toBe('stale');
  });

  it('does not build for a changed test (specs are not built)', () => {
    expect(buildNeeded(project({ ...SOURCES, ...BUILD, 'libs/auth/src/password.spec.ts': 10 }))).toBeUndefined();
  });
});
