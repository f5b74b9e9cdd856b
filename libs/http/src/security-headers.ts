import { buildSwaggerHTML, getSwaggerAssetsAbsoluteFSPath } from '@nestjs/swagger/dist/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import * as path from 'node:path';

/**
 * A page's policy: its scripts only from its own origin, its styles as given, nothing from another origin, no
 * plugins, no framing, no change of base; it connects only to the API on the same origin.
 */
function pagePolicyWith(styleSources: string): string {
  return (
    `default-src 'none'; script-src 'self'; style-src ${styleSources}; img-src 'self' data:; connect-src 'self'; ` +
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
  );
}

/** The `'sha256-...'` source of an inline style, as CSP compares it: over the exact text. */
function hashSource(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/** The Swagger UI scripts that render <style> elements of their own (the top bar's logo, an SVG with a <style>). */
const SWAGGER_UI_SCRIPTS = ['swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js'];

/**
 * The inline styles of the Swagger UI page that @nestjs/swagger serves at /docs, as hash sources: the two <style>
 * blocks and the style attribute (allowed by hash with 'unsafe-hashes') of its HTML template, rendered as the route
 * renders it (serveOpenApi passes no option that changes the styles), and the <style> elements its scripts create
 * (`createElement("style",null,"...")` in the installed swagger-ui-dist). Its scripts are all files of the same
 * origin (the bundle, the preset, swagger-ui-init.js): scripts need no exception.
 */
function swaggerUiStyleSources(): string[] {
  const html = buildSwaggerHTML('./', {});
  const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g), ...html.matchAll(/\sstyle="([^"]*)"/g)].map((m) => m[1]);
  for (const file of SWAGGER_UI_SCRIPTS) {
    const code = readFileSync(path.join(getSwaggerAssetsAbsoluteFSPath(), file), 'utf8');
    for (const m of code.matchAll(/createElement\("style",null,("(?:[^"\\]|\\.)*")\)/g)) {
      styles.push(JSON.parse(m[1]) as string);
    }
  }
  return [...new Set(styles.map(hashSource))];
}

/** /docs (Swagger UI): its own files, and its inline styles by hash. No 'unsafe-inline', no 'unsafe-eval'. */
export const DOCS_CSP = pagePolicyWith(`'self' 'unsafe-hashes' ${swaggerUiStyleSources().join(' ')}`);

/** /dashboard: only the dashboard's own files, no inline script or style; the API on the same origin. */
export const DASHBOARD_CSP = pagePolicyWith("'self'");

/**
 * The security headers of an answer to `url`: `X-Content-Type-Options: nosniff` on every one, so that a browser
 * never reads an answer as another type than it says; on the pages (/docs, /dashboard and every file under them,
 * 404s included) a strict Content-Security-Policy, `X-Frame-Options: DENY` (framing, for browsers without
 * frame-ancestors) and `Referrer-Policy: no-referrer`. API answers (JSON, CSV) are not rendered as pages: no policy.
 */
export function securityHeaders(url: string): Array<[string, string]> {
  const pathname = url.split('?', 1)[0];
  const policy =
    pathname === '/docs' || pathname.startsWith('/docs/')
      ? DOCS_CSP
      : pathname === '/dashboard' || pathname.startsWith('/dashboard/')
        ? DASHBOARD_CSP
        : undefined;
  const headers: Array<[string, string]> = [['X-Content-Type-Options', 'nosniff']];
  if (policy) {
    headers.push(['Content-Security-Policy', policy], ['X-Frame-Options', 'DENY'], ['Referrer-Policy', 'no-referrer']);
  }
  return headers;
}

/**
 * Sets securityHeaders on every answer: on the raw response as the request arrives (before Fastify's own listener,
 * so the router's 400 for a malformed URL and the 503 while closing have them too, though no hook runs for those),
 * and again in onSend (answers made without the server, such as fastify.inject's).
 */
export function registerSecurityHeaders(fastify: FastifyInstance): void {
  fastify.server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    for (const [name, value] of securityHeaders(req.url ?? '/')) {
      res.setHeader(name, value);
    }
  });
  fastify.addHook('onSend', async (req, reply, payload) => {
    for (const [name, value] of securityHeaders(req.url)) {
      void reply.header(name, value);
    }
    return payload;
  });
}
