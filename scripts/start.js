// `npm start`: builds only when the build is missing or older than the sources, then runs the embedded app
// (dist/apps/standalone/src/main.js) in this process. `npm run build` always builds.
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');

/** What the build reads: the sources (specs aside, the build leaves them out) and the files that configure it. */
const SOURCE_DIRS = ['apps', 'libs'];
const CONFIG_FILES = ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json'];

/** What `npm run build` writes: the app started here, and the dashboard, written last (a build that failed lacks it). */
const BUILD_OUTPUTS = ['dist/apps/standalone/src/main.js', 'dist/dashboard/index.html'];

/** The newest modification time (ms) of the files and folders under `dir` that the build reads; 0 when none. */
function newestSource(dir) {
  let newest = 0;
  let entries;
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    const file = path.join(dir, entry.name);
    // A directory's own time changes when a file in it is added, deleted or renamed (a deleted source needs a build).
    if (entry.isDirectory()) {
      newest = Math.max(newest, fs.statSync(file).mtimeMs, newestSource(file));
    } else if (entry.isFile() && !entry.name.endsWith('.spec.ts')) {
      newest = Math.max(newest, fs.statSync(file).mtimeMs);
    }
  }
  return newest;
}

function mtime(file) {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
}

/**
 * Why `root` needs a build before it can start ('missing' or 'stale'), or undefined when dist is newer than every
 * source and configuration file.
 */
function buildNeeded(root = ROOT) {
  const built = BUILD_OUTPUTS.map((file) => mtime(path.join(root, file)));
  if (built.some((t) => t === undefined)) {
    return 'missing';
  }
  const sources = Math.max(
    ...SOURCE_DIRS.map((dir) => newestSource(path.join(root, dir))),
    ...CONFIG_FILES.map((file) => mtime(path.join(root, file)) ?? 0),
  );
  return sources > Math.min(...built) ? 'stale' : undefined;
}

function main() {
  const reason = buildNeeded();
  if (reason) {
    process.stdout.write(`The build is ${reason === 'missing' ? 'missing' : 'older than the sources'}: npm run build\n`);
    const npm = process.env.npm_execpath
      ? spawnSync(process.execPath, [process.env.npm_execpath, 'run', 'build'], { cwd: ROOT, stdio: 'inherit' })
      : spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit', shell: process.platform === 'win32' });
    if (npm.status !== 0) {
      process.exit(npm.status ?? 1);
    }
  }
  require(path.join(ROOT, 'dist/apps/standalone/src/main.js'));
}

if (require.main === module) {
  main();
}

module.exports = { buildNeeded };
