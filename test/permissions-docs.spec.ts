import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { ANALYTICS_KEY, COLLECTOR_KEY, CREDENTIAL_ONLY_KEY, PERMISSION_KEY, PUBLIC_KEY } from '@app/auth';

/**
 * The permission table of docs/api/authentication.md against the routes themselves: every route of every controller
 * is a row, with the permission its handler declares (or "any valid credential", or "public"), so a new route or a
 * changed permission cannot leave the docs behind.
 */
const ROOT = path.resolve(__dirname, '..');
const DOC = 'docs/api/authentication.md';

type Handler = (...args: unknown[]) => unknown;

/** `GET /search-terms/{id}` from a controller's and a handler's paths (Nest's `:id` written as OpenAPI writes it). */
function routeOf(method: RequestMethod, controllerPath: string, handlerPath: string): string {
  const joined = ['', controllerPath, handlerPath].join('/').replace(/\/+/g, '/').replace(/\/$/, '');
  return `${RequestMethod[method]} ${(joined || '/').replace(/:(\w+)/g, '{$1}')}`;
}

/** What a handler (or its class) declares: a permission in backticks, the collector key, any credential, or public. */
function declared(controller: object, handler: Handler): string {
  const read = (key: string): unknown => Reflect.getMetadata(key, handler) ?? Reflect.getMetadata(key, controller);
  if (read(PUBLIC_KEY) === true) {
    return 'public';
  }
  if (read(CREDENTIAL_ONLY_KEY) === true) {
    return 'any valid credential';
  }
  const permission = read(PERMISSION_KEY);
  if (typeof permission !== 'string') {
    throw new Error(`${handler.name} declares neither a permission nor Public nor RequireCredential`);
  }
  if (read(ANALYTICS_KEY) === true) {
    return `\`${permission}\` (or an analytics key)`;
  }
  return read(COLLECTOR_KEY) === true ? `\`${permission}\` (a collector key only)` : `\`${permission}\``;
}

/** Every route of every controller of the query app (the API), with what it declares. */
function controllerRoutes(): Map<string, string> {
  const files = execFileSync('git', ['ls-files', 'apps/query/*.controller.ts'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);
  const routes = new Map<string, string>();
  for (const file of files) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the controllers are found by their file names
    for (const exported of Object.values(require(path.join(ROOT, file)) as Record<string, unknown>)) {
      const controllerPath: unknown = typeof exported === 'function' ? Reflect.getMetadata(PATH_METADATA, exported) : undefined;
      if (typeof controllerPath !== 'string') {
        continue;
      }
      const prototype = (exported as { prototype: Record<string, unknown> }).prototype;
      for (const name of Object.getOwnPropertyNames(prototype)) {
        const handler = prototype[name] as Handler;
        const method: unknown = typeof handler === 'function' ? Reflect.getMetadata(METHOD_METADATA, handler) : undefined;
        if (name === 'constructor' || method === undefined) {
          continue;
        }
        routes.set(
          routeOf(method as RequestMethod, controllerPath, Reflect.getMetadata(PATH_METADATA, handler) as string),
          declared(exported as object, handler),
        );
      }
    }
  }
  return routes;
}

/** The rows of the table under "## Permissions": route (without its backticks) and the permission cell as written. */
function documentedRoutes(): Map<string, string> {
  const section = readFileSync(path.join(ROOT, DOC), 'utf8')
    .split(/^## /m)
    .find((s) => s.startsWith('Permissions\n'));
  if (section === undefined) {
    throw new Error(`${DOC} has no "## Permissions" section`);
  }
  const rows = section
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .slice(2);
  return new Map(
    rows.map((line) => {
      const [route, permission] = line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim());
      return [route.replace(/^`|`$/g, ''), permission.replace(/^public \(.*\)$/, 'public')];
    }),
  );
}

describe(`the permission table of ${DOC}`, () => {
  const routes = controllerRoutes();
  const documented = documentedRoutes();

  it('finds the routes of the controllers', () => {
    expect(routes.get('GET /search-terms/{id}/suggestions')).toBe('`search:read`');
    expect(routes.get('GET /instances')).toBe('any valid credential');
    expect(routes.get('POST /1/events')).toBe('`events:collect` (a collector key only)');
    expect(routes.get('GET /health/live')).toBe('public');
  });

  it('lists every route with the permission its controller declares', () => {
    const missing = [...routes].filter(([route, permission]) => documented.get(route) !== permission);
    expect(missing.map(([route, permission]) => `${route}: ${permission} (documented: ${documented.get(route) ?? 'no row'})`)).toEqual([]);
  });

  it('lists no route that no controller has', () => {
    expect([...documented.keys()].filter((route) => !routes.has(route))).toEqual([]);
  });
});
