import { existsSync, readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';

/** Where `npm run build` writes the dashboard (apps/dashboard/build.js): dist/dashboard beside package.json. */
function dashboardDir(): string {
  let dir = __dirname;
  while (!existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) {
    dir = path.dirname(dir);
  }
  return path.join(dir, 'dist', 'dashboard');
}

export interface Asset {
  body: Buffer;
  type: string;
  /** Content-hashed names are cached for good; index.html never. */
  cacheControl: string;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/** The built files, read once at start-up; empty when the dashboard was not built. */
export function loadDashboardAssets(dir = dashboardDir()): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  if (!existsSync(dir)) {
    return assets;
  }
  for (const name of readdirSync(dir)) {
    const type = TYPES[path.extname(name)];
    if (!type) {
      continue;
    }
    const cacheControl = name === 'index.html' ? 'no-cache' : 'public, max-age=31536000, immutable';
    assets.set(name, { body: readFileSync(path.join(dir, name)), type, cacheControl });
  }
  return assets;
}
